// Media records: files produced by jobs or uploaded, stored under the configured media directory.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::media {

struct Media {
    long long id = 0;
    std::string public_id;
    long long workspace_id = 0;
    std::string kind;              // audio, image, video, document
    std::string status = "ready";  // pending: an upload URL was issued and no bytes confirmed
    std::string mime_type;
    std::optional<std::string> filename;  // as uploaded
    long long size_bytes = 0;
    std::string storage_path;  // the object store key
    std::optional<double> duration_seconds;
    std::optional<int> width;
    std::optional<int> height;
    std::optional<long long> source_job_id;
    std::string source_role = "main";  // which of its job's files: main, pdf, thumbnail-1, ...
    time::TimePoint created_at;
    // A pending upload's: the SHA-256 of its upload URL's token until bytes arrive, and when the
    // URL stops working.
    std::optional<std::string> upload_token_hash;
    std::optional<time::TimePoint> upload_expires_at;
};

struct MediaPage {
    std::vector<Media> items;
    long long total = 0;
};

class MediaRepository {
  public:
    // Records a file a job produced under `m.source_role`. A rerun of the same job replaces its
    // record (one media per job and role), so a job that ran twice after a crash still owns
    // exactly one file per role.
    static Media upsert_for_job(db::Session& s, Media m);
    static std::optional<Media> find(db::Session& s, long long workspace_id,
                                     const std::string& public_id);
    static bool remove(db::Session& s, long long workspace_id, const std::string& public_id);

    // A fresh public id ("med_" and 24 hex digits); uploads need it to name their file first.
    static std::string new_public_id();
    // Ready media of the workspace, newest first; `kind` narrows to one kind.
    static MediaPage list_ready(db::Session& s, long long workspace_id,
                                const std::optional<std::string>& kind, long long offset,
                                int limit);
    // Inserts `m` as it is (public_id set by the caller); returns it with id and created_at.
    static Media insert(db::Session& s, Media m);
    // The pending upload whose token hashes to `token_hash`, bytes not yet received.
    static std::optional<Media> find_by_upload_token(db::Session& s, const std::string& token_hash);
    // Records the bytes an upload URL received and burns its token, unless another request
    // burnt it first or it expired; whether it did.
    static bool store_upload(db::Session& s, long long id, const std::string& token_hash,
                             const std::string& storage_path, long long size_bytes,
                             time::TimePoint now);
    // A pending upload whose bytes arrived becomes ready with what inspection found; false
    // when it is not pending with bytes any more (a concurrent confirm won).
    static bool mark_ready(db::Session& s, const Media& m);
    static bool remove_by_id(db::Session& s, long long id);
    // Pending uploads whose URL expired before `now`, oldest first.
    static std::vector<Media> expired_uploads(db::Session& s, time::TimePoint now, int limit);
    // Ids of the workspace's scheduled posts whose media_urls hold `url`.
    static std::vector<long long> scheduled_posts_using(db::Session& s, long long workspace_id,
                                                        const std::string& url);
    // The files a job recorded, by role.
    static std::vector<Media> for_job(db::Session& s, long long workspace_id, long long job_id);
    static void remove_for_job(db::Session& s, long long workspace_id, long long job_id);
};

}  // namespace squawk::media
