// Prepares the media of scheduled posts before their time: each pass reads the publish jobs due
// within [social] media_prefetch_lead_seconds from the pool's delayed set and has the media cache
// probe, download, read and transcode what their platforms will need, so that at the due second
// only the sends remain. What a pass could not prepare the publish fetches itself.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/http/http_client.hpp"
#include "common/core/redis/redis_client.hpp"
#include "common/core/runtime/periodic_task.hpp"
#include "workers/publish/media_cache.hpp"
#include "workers/runtime/blocking_executor.hpp"

#include <atomic>
#include <map>
#include <memory>

namespace squawk::workers::publish {

class MediaPrefetcher {
  public:
    MediaPrefetcher(const config::Config& config, db::MysqlPool& mysql, BlockingExecutor& executor,
                    http::Client& http);
    ~MediaPrefetcher();
    MediaPrefetcher(const MediaPrefetcher&) = delete;
    MediaPrefetcher& operator=(const MediaPrefetcher&) = delete;

    void start();
    // Ends the passes; a download in flight finishes first.
    void stop();
    // One pass; returns how many media lists (per platform) it prepared.
    size_t run_once();

  private:
    const config::Config& config_;
    db::MysqlPool& mysql_;
    BlockingExecutor& executor_;
    http::Client& http_;
    std::shared_ptr<MediaCache> cache_;
    redis::RedisClient redis_;
    // Jobs already prepared, by id, with their due time (unix ms): a job is prepared once.
    std::map<long long, long long> prepared_;
    std::atomic<bool> stopping_{false};
    runtime::PeriodicTask task_;
};

}  // namespace squawk::workers::publish
