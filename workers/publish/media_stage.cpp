#include "workers/publish/media_stage.hpp"

#include "common/social/media_plan.hpp"
#include "common/social/publish_repository.hpp"
#include "workers/errors.hpp"
#include "workers/publish/target_error.hpp"

#include <boost/fiber/fiber.hpp>
#include <boost/fiber/protected_fixedsize_stack.hpp>

#include <vector>

namespace squawk::workers::publish {
namespace {

constexpr size_t kProbeStackBytes = 128 * 1024;

std::vector<social::MediaProbe> probe_all(TaskContext& context,
                                          const std::vector<std::string>& urls) {
    const bool allow_private = context.config().security.allow_private_targets;
    const auto timeout = std::chrono::milliseconds(context.config().social.media_probe_timeout_ms);
    // Resolving blocks the thread: it runs on the executor, so only the probing fiber waits.
    const social::TargetCheck check = [&](const std::string& url) {
        return context.executor().run([&] { return net::check_target(url, allow_private); });
    };
    std::vector<social::MediaProbe> probes(urls.size());
    std::vector<boost::fibers::fiber> fibers;
    fibers.reserve(urls.size());
    for (size_t i = 0; i < urls.size(); ++i)
        fibers.emplace_back(
            std::allocator_arg, boost::fibers::protected_fixedsize_stack(kProbeStackBytes), [&, i] {
                try {
                    probes[i] = social::probe_media(*context.http(), urls[i], check, timeout);
                } catch (const std::exception& e) {
                    probes[i].url = urls[i];
                    probes[i].failure = social::ProbeFailure{
                        false, std::string("the probe failed: ") + e.what(), 0};
                }
            });
    for (auto& f : fibers) f.join();
    return probes;
}

}  // namespace

MediaStage process_media(const jobs::ClaimedJob& job, TaskContext& context, long long target_id,
                         const social::Connector& connector, social::Message& message) {
    const auto plan = social::plan_media(connector.platform(), connector.limits().media,
                                         probe_all(context, message.image_urls));
    MediaStage out;
    out.fixes = plan.fixes;
    if (plan.problem) {
        out.problem = plan.problem;
        return out;
    }
    if (plan.retry_reason) {
        if (job.attempts >= job.max_attempts) {
            out.problem =
                target_error("MEDIA_UNAVAILABLE",
                             "The media could not be fetched after " +
                                 std::to_string(job.attempts) + " attempts: " + *plan.retry_reason,
                             {{"reason", *plan.retry_reason}});
            return out;
        }
        context.in_transaction(
            [&](db::Session& s) { social::PublishRepository::clear_sending(s, target_id); });
        throw RetryableError("media not reachable yet: " + *plan.retry_reason);
    }
    message.images_as_documents = plan.as_documents;
    return out;
}

}  // namespace squawk::workers::publish
