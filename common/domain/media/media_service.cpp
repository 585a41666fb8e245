#include "common/domain/media/media_service.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "common/domain/media/media_inspector.hpp"
#include "common/domain/media/media_types.hpp"

#include <filesystem>
#include <fstream>

namespace squawk::media {
namespace {

namespace fs = std::filesystem;

// What the bytes turned out to be, and the file name that says so.
void take_inspection(Media& m, const Inspection& found) {
    m.kind = found.kind;
    m.mime_type = found.mime_type;
    m.width = found.width;
    m.height = found.height;
    m.duration_seconds = found.duration_seconds;
    m.storage_path = std::to_string(m.workspace_id) + "/" + m.public_id + "." + found.extension;
}

ApiError media_not_found() {
    return ApiError(ErrorCode::NotFound, "No media with this id.");
}

ApiError upload_url_not_found() {
    return ApiError(ErrorCode::NotFound,
                    "This upload URL is unknown, expired or already used; request a new one.");
}

ApiError file_refused(const std::string& reason) {
    return validation_error({{"file", reason}}, "The file is not an accepted media file.");
}

std::string random_suffix() {
    return crypto::hex(crypto::random_bytes(6));
}

}  // namespace

std::string MediaService::path_of(const Media& m) const {
    return settings_.dir + "/" + m.storage_path;
}

Media MediaService::get(long long workspace_id, const std::string& public_id) {
    auto m = mysql_.run(
        [&](db::Session& s) { return MediaRepository::find(s, workspace_id, public_id); });
    if (!m) throw media_not_found();
    return std::move(*m);
}

MediaPage MediaService::list(long long workspace_id, const std::optional<std::string>& kind,
                             long long offset, int limit) {
    return mysql_.run([&](db::Session& s) {
        return MediaRepository::list_ready(s, workspace_id, kind, offset, limit);
    });
}

MediaFile MediaService::file(long long workspace_id, const std::string& public_id,
                             const std::string& request_id) {
    const auto m = get(workspace_id, public_id);
    if (m.status != "ready")
        throw ApiError(ErrorCode::NotFound, "The media has not been uploaded and confirmed yet.");
    std::string path = path_of(m);
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec || !fs::is_regular_file(path, ec)) {
        log::error("media file missing",
                   {{"request_id", request_id}, {"media_id", m.public_id}, {"path", path}});
        throw ApiError(ErrorCode::NotFound, "The media file is no longer available.");
    }
    return {std::move(path), m.mime_type, static_cast<long long>(size)};
}

void MediaService::remove(long long workspace_id, const std::string& public_id,
                          const std::string& download_url, const std::string& request_id) {
    const auto m = get(workspace_id, public_id);
    const auto posts = mysql_.run([&](db::Session& s) {
        return MediaRepository::scheduled_posts_using(s, workspace_id, download_url);
    });
    if (!posts.empty())
        throw ApiError(ErrorCode::Conflict,
                       "Scheduled posts use this media; delete or edit them first.",
                       {{"post_ids", posts}});
    const bool removed = mysql_.run(
        [&](db::Session& s) { return MediaRepository::remove(s, workspace_id, m.public_id); });
    if (!removed) throw media_not_found();  // deleted by a concurrent request
    // The row goes first: a file left behind is garbage, a row without its file is a broken link.
    remove_file(m.storage_path, request_id);
}

std::string MediaService::adopt_file(long long workspace_id, const std::string& name,
                                     squawk::fs::OwnedFile& file) {
    const std::string folder = std::to_string(workspace_id);
    const std::filesystem::path directory = std::filesystem::path(settings_.dir) / folder;
    std::filesystem::create_directories(directory);
    file.move_to(directory / name);
    return folder + "/" + name;
}

void MediaService::remove_file(const std::string& relative_path, const std::string& request_id) {
    if (relative_path.empty()) return;  // a pending upload that never received bytes
    std::error_code ec;
    fs::remove(settings_.dir + "/" + relative_path, ec);
    if (ec)
        log::warn("media file not removed",
                  {{"request_id", request_id}, {"path", relative_path}, {"error", ec.message()}});
}

Media MediaService::upload(long long workspace_id, squawk::fs::OwnedFile& file,
                           long long size_bytes, const std::optional<std::string>& filename) {
    if (size_bytes == 0) throw file_refused("the file is empty");
    Media m;
    m.public_id = MediaRepository::new_public_id();
    m.workspace_id = workspace_id;
    m.filename = filename;
    m.size_bytes = size_bytes;
    // Inspected under a name no record points to; it takes its final name once accepted. Until
    // the row is written the file stays the caller's, who removes it if anything fails.
    adopt_file(workspace_id, m.public_id + ".upload", file);
    Inspection found;
    try {
        found = inspect_media(file.path().string(), settings_);
    } catch (const UnacceptableMedia& e) {
        throw file_refused(e.what());
    }
    take_inspection(m, found);
    file.move_to(path_of(m));
    m = mysql_.run([&](db::Session& s) { return MediaRepository::insert(s, m); });
    file.release();
    return m;
}

UploadUrl MediaService::create_upload_url(long long workspace_id, const std::string& filename,
                                          const std::string& mime_type) {
    const MediaType* type = accepted_type(mime_type);
    if (!type) throw std::logic_error("create_upload_url: unchecked type " + mime_type);
    UploadUrl out;
    out.token = crypto::hex(crypto::random_bytes(32));
    Media& m = out.media;
    m.public_id = MediaRepository::new_public_id();
    m.workspace_id = workspace_id;
    m.kind = std::string(type->kind);
    m.status = "pending";
    m.mime_type = std::string(type->mime_type);
    m.filename = filename;
    m.upload_token_hash = crypto::sha256_hex(out.token);
    m.upload_expires_at = time::now() + std::chrono::seconds(settings_.upload_url_ttl_seconds);
    m = mysql_.run([&](db::Session& s) { return MediaRepository::insert(s, m); });
    return out;
}

Media MediaService::receive_upload(const std::string& token, squawk::fs::OwnedFile& file,
                                   long long size_bytes) {
    const std::string hash = crypto::sha256_hex(token);
    auto m =
        mysql_.run([&](db::Session& s) { return MediaRepository::find_by_upload_token(s, hash); });
    const auto now = time::now();
    if (!m || !m->upload_expires_at || *m->upload_expires_at <= now) throw upload_url_not_found();
    if (size_bytes == 0) throw file_refused("the body is empty");
    // A name of its own: a concurrent request with the same token cannot overwrite it.
    const std::string stored =
        adopt_file(m->workspace_id, m->public_id + ".upload-" + random_suffix(), file);
    const bool burnt = mysql_.run([&](db::Session& s) {
        return MediaRepository::store_upload(s, m->id, hash, stored, size_bytes, now);
    });
    if (!burnt) throw upload_url_not_found();
    file.release();
    m->storage_path = stored;
    m->size_bytes = size_bytes;
    m->upload_token_hash.reset();
    return std::move(*m);
}

Media MediaService::confirm(long long workspace_id, const std::string& public_id,
                            const std::string& request_id) {
    Media m = get(workspace_id, public_id);
    if (m.status == "ready") return m;
    if (m.upload_token_hash || m.storage_path.empty())
        throw ApiError(ErrorCode::NotUploaded, "No bytes were sent to this media's upload URL.");
    Inspection found;
    try {
        found = inspect_media(path_of(m), settings_);
    } catch (const UnacceptableMedia& e) {
        // Nothing of a refused upload is kept: the client starts again with a new upload URL.
        mysql_.run([&](db::Session& s) { return MediaRepository::remove_by_id(s, m.id); });
        remove_file(m.storage_path, request_id);
        throw file_refused(e.what());
    }
    const std::string received = m.storage_path;
    take_inspection(m, found);
    std::error_code ec;
    fs::rename(settings_.dir + "/" + received, path_of(m), ec);
    if (ec) throw std::runtime_error("cannot rename a confirmed upload: " + ec.message());
    const bool made_ready =
        mysql_.run([&](db::Session& s) { return MediaRepository::mark_ready(s, m); });
    if (!made_ready) {
        // A concurrent confirm made it ready first; its record is the answer.
        Media current = get(workspace_id, public_id);
        if (current.status == "ready") return current;
        throw ApiError(ErrorCode::Conflict, "The media changed while it was being confirmed.");
    }
    m.status = "ready";
    m.upload_expires_at.reset();
    return m;
}

long long MediaService::sweep_expired_uploads(int limit) {
    const auto expired = mysql_.run(
        [&](db::Session& s) { return MediaRepository::expired_uploads(s, time::now(), limit); });
    long long removed = 0;
    for (const auto& m : expired) {
        const bool deleted =
            mysql_.run([&](db::Session& s) { return MediaRepository::remove_by_id(s, m.id); });
        if (!deleted) continue;
        remove_file(m.storage_path, "retention-sweep");
        ++removed;
    }
    return removed;
}

}  // namespace squawk::media
