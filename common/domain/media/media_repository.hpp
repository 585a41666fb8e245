// Media records: files produced by jobs or uploaded, stored under the configured media directory.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"

#include <optional>
#include <string>

namespace squawk::media {

struct Media {
    long long id = 0;
    std::string public_id;
    long long workspace_id = 0;
    std::string kind;  // audio, image, video
    std::string mime_type;
    long long size_bytes = 0;
    std::string storage_path;  // relative to the media directory
    std::optional<double> duration_seconds;
    std::optional<long long> source_job_id;
    time::TimePoint created_at;
};

class MediaRepository {
  public:
    // Records the media a job produced. A rerun of the same job replaces its record (one media
    // per job), so a job that ran twice after a crash still owns exactly one file.
    static Media upsert_for_job(db::Session& s, Media m);
    static std::optional<Media> find(db::Session& s, long long workspace_id,
                                     const std::string& public_id);
    static bool remove(db::Session& s, long long workspace_id, const std::string& public_id);
};

}  // namespace squawk::media
