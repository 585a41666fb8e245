#include "common/core/storage/local_object_store.hpp"

#include "common/core/storage/file_placement.hpp"
#include "common/core/storage/object_key.hpp"

#include <cerrno>
#include <system_error>
#include <utility>

namespace squawk::storage {
namespace {

[[noreturn]] void no_such_key(std::string_view key) {
    throw StorageError("NoSuchKey", "no object '" + std::string(key) + "'", 404, false);
}

void make_parent(const std::filesystem::path& file) {
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) local_failure("cannot create " + file.parent_path().string(), ec);
}

}  // namespace

LocalObjectStore::LocalObjectStore(std::filesystem::path root) : root_(std::move(root)) {
    std::error_code ec;
    std::filesystem::create_directories(root_, ec);
    if (ec) local_failure("cannot create the storage root " + root_.string(), ec);
}

std::filesystem::path LocalObjectStore::path_of(std::string_view key) const {
    validate_object_key(key);
    return root_ / std::filesystem::path(key);
}

void LocalObjectStore::put_file(std::string_view key, const std::filesystem::path& local_file,
                                std::string_view) {
    const auto destination = path_of(key);
    make_parent(destination);
    // A work file on the same filesystem moves in at no cost; one elsewhere is copied. Either way
    // its bytes reach the disk before its name does.
    flush_to_disk(local_file);
    std::error_code ec;
    std::filesystem::rename(local_file, destination, ec);
    if (!ec) return;
    if (ec != std::errc::cross_device_link)
        local_failure("cannot move " + local_file.string() + " to " + destination.string(), ec);
    copy_into_place(local_file, destination);
    std::filesystem::remove(local_file, ec);
}

void LocalObjectStore::fetch_to_file(std::string_view key,
                                     const std::filesystem::path& destination) {
    const auto source = path_of(key);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(source, ec)) no_such_key(key);
    copy_into_place(source, destination);
}

void LocalObjectStore::remove(std::string_view key) {
    const auto path = path_of(key);
    std::error_code ec;
    std::filesystem::remove(path, ec);
    if (ec && ec != std::errc::no_such_file_or_directory)
        local_failure("cannot remove " + path.string(), ec);
}

void LocalObjectStore::move(std::string_view from, std::string_view to) {
    const auto source = path_of(from);
    const auto destination = path_of(to);
    if (from == to) return;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(source, ec)) no_such_key(from);
    make_parent(destination);
    // Both names are under the root, on one filesystem: the rename is atomic, and a reader of
    // `to` opens either the file it replaced or the moved one.
    std::filesystem::rename(source, destination, ec);
    if (!ec) return;
    std::error_code ignored;
    if (!std::filesystem::is_regular_file(source, ignored)) no_such_key(from);
    local_failure("cannot move " + source.string() + " to " + destination.string(), ec);
}

std::optional<std::uint64_t> LocalObjectStore::size(std::string_view key) {
    const auto path = path_of(key);
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!std::filesystem::is_regular_file(status)) return std::nullopt;
    const auto bytes = std::filesystem::file_size(path, ec);
    if (ec) {
        // Removed between the two calls: no longer there.
        if (ec == std::errc::no_such_file_or_directory) return std::nullopt;
        local_failure("cannot read the size of " + path.string(), ec);
    }
    return bytes;
}

std::optional<std::string> LocalObjectStore::presign_put(std::string_view key, std::string_view,
                                                         std::chrono::seconds) {
    validate_object_key(key);
    return std::nullopt;
}

std::optional<std::string> LocalObjectStore::presign_get(std::string_view key, std::chrono::seconds,
                                                         const ResponseOverrides&) {
    validate_object_key(key);
    return std::nullopt;
}

std::optional<std::filesystem::path> LocalObjectStore::local_path(std::string_view key) const {
    return path_of(key);
}

}  // namespace squawk::storage
