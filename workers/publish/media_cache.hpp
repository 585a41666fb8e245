// The media a burst of publishes shares, prepared once per URL: a probe, a downloaded file, its
// ffprobe reading and its MP4 transcode are each made by one caller while the others needing the
// same URL wait for it (single flight), then kept: probes in memory, files on disk under
// <media dir>/.publish-cache, shared by the worker processes of the machine through atomic renames.
#pragma once

#include "common/core/fs/work_files.hpp"
#include "common/core/runtime/single_flight.hpp"
#include "common/domain/media/media_inspector.hpp"
#include "common/domain/social/media_probe.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace squawk::workers::publish {

// A file of the cache, linked under a name of its own for as long as the holder uses it: eviction
// and a newer copy replace only the cache's name.
struct CachedFile {
    std::shared_ptr<const fs::OwnedFile> link;
    std::string content_type;
    long long bytes = 0;
    // ffprobe's reading of a video, or why it cannot read the file.
    std::optional<media::Inspection> inspection;
    std::string unreadable;

    const std::filesystem::path& path() const { return link->path(); }
};

struct CacheAnswer {
    std::optional<CachedFile> file;
    std::optional<social::ProbeFailure> failure;
};

// How the cache makes a file that is missing: writes it to the path given, or says why not.
using FileMaker = std::function<std::optional<social::ProbeFailure>(const std::filesystem::path&)>;
// What ffprobe reads in a file (media::inspect_media on the caller's blocking executor).
using Inspector = std::function<media::Inspection(const std::filesystem::path&)>;
// Runs blocking file work off the calling fiber.
using Blocking = std::function<void(const std::function<void()>&)>;

class MediaCache {
  public:
    // Files are reused for `ttl` after they were fetched; the directory holds at most
    // `max_bytes` of them (0: none once their users are done).
    MediaCache(std::filesystem::path dir, long long max_bytes, std::chrono::seconds ttl);

    const std::filesystem::path& dir() const { return dir_; }

    // The probe of `url`: a fresh one kept from an earlier call, else `probe()` once for every
    // concurrent caller. Only probes that succeeded are kept.
    social::MediaProbe probe(const std::string& url,
                             const std::function<social::MediaProbe()>& probe);

    // The file `variant` ("source", "mp4") of `url`: the cached one when it is fresh and, for
    // the source, of `expected_bytes` when the probe announced a size; else made by `make` once
    // for every concurrent caller with the same `max_bytes`, read by `inspect` when given, and
    // kept. A failure is not kept, and drops the URL's kept probe; a file over `max_bytes` is a
    // permanent failure.
    CacheAnswer file(const std::string& url, const std::string& variant,
                     std::optional<long long> expected_bytes, long long max_bytes,
                     const std::string& content_type, const FileMaker& make,
                     const Inspector& inspect, const Blocking& blocking);

    // Removes what is past its age and the oldest files over the bound.
    void evict();

  private:
    std::optional<CachedFile> cached(const std::string& url, const std::string& variant,
                                     std::optional<long long> expected_bytes);
    CacheAnswer make_file(const std::string& url, const std::string& variant,
                          const std::string& content_type, const FileMaker& make,
                          const Inspector& inspect);

    struct KeptProbe {
        social::MediaProbe probe;
        std::chrono::steady_clock::time_point at;
    };

    std::filesystem::path dir_;
    long long max_bytes_;
    std::chrono::seconds ttl_;
    std::mutex probes_mutex_;
    std::map<std::string, KeptProbe> probes_;
    runtime::SingleFlight<social::MediaProbe> probe_flights_;
    runtime::SingleFlight<CacheAnswer> file_flights_;
};

// The cache of the worker processes that share `dir`: one instance per process, so that its
// fibers share flights.
std::shared_ptr<MediaCache> shared_media_cache(const std::filesystem::path& dir,
                                               long long max_bytes, std::chrono::seconds ttl);

// In `dir`: removes entries fetched more than `ttl` ago, then the oldest until the rest weigh at
// most `max_bytes`; links and partial files a killed process left behind are removed after a day.
void evict_media_cache(const std::filesystem::path& dir, long long max_bytes,
                       std::chrono::seconds ttl);

}  // namespace squawk::workers::publish
