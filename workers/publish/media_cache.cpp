#include "workers/publish/media_cache.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/http/file_transfer.hpp"
#include "common/core/log/logger.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <vector>

namespace squawk::workers::publish {
namespace {

namespace stdfs = std::filesystem;
using nlohmann::json;

constexpr const char* kLinks = "links";
constexpr const char* kParts = "parts";
// Far longer than any publish holds a link or any download writes a part.
constexpr std::chrono::hours kLeftBehind{24};
// Bounds the memory of probes; the oldest go first once it is reached.
constexpr size_t kMaxProbes = 100000;

std::string entry_name(const std::string& url, const std::string& variant) {
    return crypto::sha256_hex(url) + "." + variant;
}

stdfs::path unique_in(const stdfs::path& dir) {
    return dir / crypto::hex(crypto::random_bytes(12));
}

bool is_meta(const stdfs::path& p) {
    return p.extension() == ".json";
}

json inspection_json(const media::Inspection& i) {
    json out = {{"kind", i.kind}, {"mime_type", i.mime_type}, {"extension", i.extension}};
    if (i.width) out["width"] = *i.width;
    if (i.height) out["height"] = *i.height;
    if (i.duration_seconds) out["duration_seconds"] = *i.duration_seconds;
    return out;
}

media::Inspection inspection_of(const json& j) {
    media::Inspection i;
    i.kind = j.value("kind", "");
    i.mime_type = j.value("mime_type", "");
    i.extension = j.value("extension", "");
    if (j.contains("width")) i.width = j["width"].get<int>();
    if (j.contains("height")) i.height = j["height"].get<int>();
    if (j.contains("duration_seconds")) i.duration_seconds = j["duration_seconds"].get<double>();
    return i;
}

// A name of its own for `file`, in `links`: a hard link, or a copy where the filesystem has none.
std::shared_ptr<const fs::OwnedFile> link_to(const stdfs::path& file, const stdfs::path& links) {
    const auto link = unique_in(links);
    std::error_code ec;
    stdfs::create_hard_link(file, link, ec);
    if (ec && !stdfs::copy_file(file, link, ec)) return nullptr;
    return std::make_shared<const fs::OwnedFile>(link);
}

bool write_text(const stdfs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    return static_cast<bool>(out);
}

}  // namespace

MediaCache::MediaCache(stdfs::path dir, long long max_bytes, std::chrono::seconds ttl)
    : dir_(std::move(dir)), max_bytes_(max_bytes), ttl_(ttl) {
    stdfs::create_directories(dir_ / kLinks);
    stdfs::create_directories(dir_ / kParts);
}

social::MediaProbe MediaCache::probe(const std::string& url,
                                     const std::function<social::MediaProbe()>& probe) {
    const auto now = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(probes_mutex_);
        if (const auto kept = probes_.find(url); kept != probes_.end()) {
            if (now - kept->second.at < ttl_) return kept->second.probe;
            probes_.erase(kept);
        }
    }
    auto got = probe_flights_.run(url, probe);
    if (got.failure) return got;
    std::lock_guard lock(probes_mutex_);
    if (probes_.size() >= kMaxProbes) {
        const auto oldest = std::min_element(
            probes_.begin(), probes_.end(),
            [](const auto& a, const auto& b) { return a.second.at < b.second.at; });
        probes_.erase(oldest);
    }
    probes_[url] = {got, std::chrono::steady_clock::now()};
    return got;
}

std::optional<CachedFile> MediaCache::cached(const std::string& url, const std::string& variant,
                                             std::optional<long long> expected_bytes) {
    const auto data = dir_ / entry_name(url, variant);
    auto meta_path = data;
    meta_path += ".json";
    std::error_code ec;
    const auto written = stdfs::last_write_time(meta_path, ec);
    if (ec || stdfs::file_time_type::clock::now() - written >= ttl_) return std::nullopt;
    const auto text = fs::read_file(meta_path);
    if (!text) return std::nullopt;
    const auto meta = json::parse(*text, nullptr, false);
    if (!meta.is_object() || meta.value("url", "") != url) return std::nullopt;
    CachedFile file;
    file.bytes = meta.value("bytes", -1LL);
    // The content length is the validator: a file the probe now gives another size changed.
    if (expected_bytes && *expected_bytes != file.bytes) return std::nullopt;
    const auto size = stdfs::file_size(data, ec);
    if (ec || static_cast<long long>(size) != file.bytes) return std::nullopt;
    file.link = link_to(data, dir_ / kLinks);
    if (!file.link) return std::nullopt;
    file.content_type = meta.value("content_type", "");
    if (meta.contains("inspection")) file.inspection = inspection_of(meta["inspection"]);
    file.unreadable = meta.value("unreadable", "");
    return file;
}

CacheAnswer MediaCache::make_file(const std::string& url, const std::string& variant,
                                  const std::string& content_type, const FileMaker& make,
                                  const Inspector& inspect) {
    CacheAnswer answer;
    fs::OwnedFile part(unique_in(dir_ / kParts));
    answer.failure = make(part.path());
    if (answer.failure) return answer;
    CachedFile file;
    std::error_code ec;
    file.bytes = static_cast<long long>(stdfs::file_size(part.path(), ec));
    if (ec) {
        answer.failure = social::ProbeFailure{false, "the downloaded file is missing", 0};
        return answer;
    }
    file.content_type = content_type;
    json meta = {{"url", url}, {"content_type", content_type}, {"bytes", file.bytes}};
    if (inspect) {
        try {
            file.inspection = inspect(part.path());
            meta["inspection"] = inspection_json(*file.inspection);
        } catch (const media::UnacceptableMedia& e) {
            file.unreadable = e.what();
            meta["unreadable"] = file.unreadable;
        }
    }
    file.link = link_to(part.path(), dir_ / kLinks);
    if (!file.link) {
        answer.failure = social::ProbeFailure{false, "the media cache cannot link its file", 0};
        return answer;
    }
    // Data first, then its description: a reader that finds the description finds the file.
    const auto data = dir_ / entry_name(url, variant);
    auto meta_path = data;
    meta_path += ".json";
    const auto meta_part = unique_in(dir_ / kParts);
    try {
        part.move_to(data);
        part.release();
        if (write_text(meta_part, meta.dump())) stdfs::rename(meta_part, meta_path);
    } catch (const std::exception& e) {
        // The file still serves this flight through its link; it is only not kept.
        log::warn("cannot keep a media file in the cache", {{"url", url}, {"error", e.what()}});
    }
    stdfs::remove(meta_part, ec);
    answer.file = std::move(file);
    return answer;
}

CacheAnswer MediaCache::file(const std::string& url, const std::string& variant,
                             std::optional<long long> expected_bytes, long long max_bytes,
                             const std::string& content_type, const FileMaker& make,
                             const Inspector& inspect, const Blocking& blocking) {
    // Kept for a platform that takes larger files than this caller's.
    const auto bounded = [max_bytes](CacheAnswer answer) {
        if (answer.file && answer.file->bytes > max_bytes)
            return CacheAnswer{std::nullopt,
                               social::ProbeFailure{true,
                                                    std::string(http::kDownloadOverBound) +
                                                        std::to_string(max_bytes) + " bytes",
                                                    0}};
        return answer;
    };
    std::optional<CachedFile> found;
    blocking([&] { found = cached(url, variant, expected_bytes); });
    if (found) return bounded({std::move(found), std::nullopt});
    // Callers of another bound make their own: a file over this one may be within theirs.
    const auto flight = variant + " " + std::to_string(max_bytes) + " " + url;
    const auto answer = file_flights_.run(flight, [&] {
        // A caller that waited for another process's flight finds its file now.
        std::optional<CachedFile> again;
        blocking([&] { again = cached(url, variant, expected_bytes); });
        if (again) return CacheAnswer{std::move(again), std::nullopt};
        return make_file(url, variant, content_type, make, inspect);
    });
    if (answer.file) {
        blocking([&] { evict(); });
    } else {
        // The host failed a download after its probe: the next attempt probes afresh.
        std::lock_guard lock(probes_mutex_);
        probes_.erase(url);
    }
    return bounded(answer);
}

void MediaCache::evict() {
    evict_media_cache(dir_, max_bytes_, ttl_);
}

std::shared_ptr<MediaCache> shared_media_cache(const stdfs::path& dir, long long max_bytes,
                                               std::chrono::seconds ttl) {
    static std::mutex mutex;
    static std::map<stdfs::path, std::weak_ptr<MediaCache>> caches;
    std::lock_guard lock(mutex);
    auto& slot = caches[dir];
    auto cache = slot.lock();
    if (!cache) {
        cache = std::make_shared<MediaCache>(dir, max_bytes, ttl);
        slot = cache;
    }
    return cache;
}

void evict_media_cache(const stdfs::path& dir, long long max_bytes, std::chrono::seconds ttl) {
    fs::remove_files_older_than(dir / kLinks, kLeftBehind);
    fs::remove_files_older_than(dir / kParts, kLeftBehind);
    struct Entry {
        stdfs::path data;
        stdfs::file_time_type written;
        long long bytes = 0;
    };
    std::vector<Entry> entries;
    const auto now = stdfs::file_time_type::clock::now();
    std::error_code ec;
    for (const auto& item : stdfs::directory_iterator(dir, ec)) {
        if (!item.is_regular_file(ec) || is_meta(item.path())) continue;
        Entry e{item.path(), item.last_write_time(ec), static_cast<long long>(item.file_size(ec))};
        if (ec) continue;
        entries.push_back(std::move(e));
    }
    // The description goes first, so that a reader never takes a file being removed as whole.
    const auto remove = [&](const Entry& e) {
        auto meta = e.data;
        meta += ".json";
        std::error_code ignored;
        stdfs::remove(meta, ignored);
        stdfs::remove(e.data, ignored);
    };
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.written < b.written; });
    long long total = 0;
    for (const auto& e : entries) total += e.bytes;
    for (const auto& e : entries) {
        if (total <= max_bytes && now - e.written < ttl) continue;
        remove(e);
        total -= e.bytes;
    }
    // Descriptions whose file is gone (removed by another process between the two removals).
    for (const auto& item : stdfs::directory_iterator(dir, ec)) {
        if (!is_meta(item.path())) continue;
        auto data = item.path();
        data.replace_extension();
        std::error_code ignored;
        if (!stdfs::exists(data, ignored)) stdfs::remove(item.path(), ignored);
    }
}

}  // namespace squawk::workers::publish
