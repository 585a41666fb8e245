#include "workers/publish/media_prefetcher.hpp"

#include "common/core/config/config.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/queue/job_queue.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/jobs/job_types.hpp"
#include "common/domain/social/due_media_repository.hpp"
#include "workers/publish/media_stage.hpp"

#include <boost/fiber/fiber.hpp>
#include <boost/fiber/protected_fixedsize_stack.hpp>

#include <algorithm>
#include <vector>

namespace squawk::workers::publish {
namespace {

// New jobs prepared per pass; a larger burst is prepared over the next passes.
constexpr size_t kMaxJobs = 5000;
// The window is read in pages of this many entries, every pass from its start: a job scheduled
// sooner than those already prepared is seen too, and those are skipped.
constexpr long long kPage = 5000;
// Media lists prepared at once: enough to overlap downloads, few enough to leave the blocking
// executor to the publishes.
constexpr size_t kParallel = 4;
constexpr size_t kStackBytes = 256 * 1024;
// Each pass reads the whole lead window (a job may be scheduled inside the part already read),
// so a backlog of scheduled posts costs a read of it every pass. Not shortened by the time scale
// of tests and benchmarks: read twenty times as often, a burst's backlog took a quarter of the
// publish worker's CPU.
constexpr std::chrono::milliseconds kPassEvery{2000};

runtime::PeriodicTask::Options options() {
    return {.name = "media-prefetch", .interval = kPassEvery};
}

}  // namespace

MediaPrefetcher::MediaPrefetcher(const config::Config& config, db::MysqlPool& mysql,
                                 BlockingExecutor& executor, http::Client& http)
    : config_(config),
      mysql_(mysql),
      executor_(executor),
      http_(http),
      cache_(publish_media_cache(config)),
      redis_(config.redis),
      task_(options(), [this] { run_once(); }) {}

MediaPrefetcher::~MediaPrefetcher() {
    stop();
}

void MediaPrefetcher::start() {
    task_.start();
}

void MediaPrefetcher::stop() {
    stopping_ = true;
    task_.stop();
}

size_t MediaPrefetcher::run_once() {
    const long long now_ms = time::to_unix_ms(time::now());
    const long long lead_ms = config_.social.media_prefetch_lead_seconds * 1000LL;
    // A job whose time passed a minute ago has moved on to its publish.
    std::erase_if(prepared_, [&](const auto& job) { return job.second < now_ms - 60000; });
    if (lead_ms == 0) return 0;

    queue::JobQueue queue(redis_);
    const auto key = queue.delayed_key(std::string(jobs::kPublishTarget.pool));
    std::vector<long long> job_ids;
    for (long long offset = 0; job_ids.size() < kMaxJobs; offset += kPage) {
        const auto due = redis_.command({"ZRANGEBYSCORE", key, std::to_string(now_ms),
                                         std::to_string(now_ms + lead_ms), "WITHSCORES", "LIMIT",
                                         std::to_string(offset), std::to_string(kPage)});
        for (size_t i = 0; i + 1 < due.elements.size() && job_ids.size() < kMaxJobs; i += 2) {
            const long long id = std::stoll(due.elements[i].text);
            const long long at = std::stoll(due.elements[i + 1].text);
            if (prepared_.emplace(id, at).second) job_ids.push_back(id);
        }
        if (static_cast<long long>(due.elements.size() / 2) < kPage) break;
    }
    if (job_ids.empty()) return 0;
    // On the executor, whose threads the worker's MySQL pool is sized for.
    const auto media = executor_.run([&] {
        return mysql_.run(
            [&](db::Session& s) { return social::DueMediaRepository::of_jobs(s, job_ids); });
    });

    const MediaTools tools{config_, executor_, http_, *cache_};
    size_t next = 0;
    size_t prepared = 0;
    const auto prepare = [&] {
        while (next < media.size() && !stopping_) {
            const auto& item = media[next++];
            try {
                const auto connector = social::make_connector(item.platform, config_.social, http_);
                if (!connector || !connector->limits().can_publish) continue;
                prefetch_media(tools, *connector, item.media_urls);
                ++prepared;
            } catch (const std::exception& e) {
                log::warn("cannot prefetch a post's media; its publish fetches them",
                          {{"platform", item.platform}, {"error", e.what()}});
            }
        }
    };
    // Fibers of this thread: the HTTP client and the executor park only them.
    std::vector<boost::fibers::fiber> fibers;
    for (size_t i = 0; i < std::min(kParallel, media.size()); ++i)
        fibers.emplace_back(std::allocator_arg,
                            boost::fibers::protected_fixedsize_stack(kStackBytes), prepare);
    for (auto& f : fibers) f.join();
    log::info("prefetched the media of scheduled posts",
              {{"jobs", job_ids.size()}, {"media_lists", prepared}});
    return prepared;
}

}  // namespace squawk::workers::publish
