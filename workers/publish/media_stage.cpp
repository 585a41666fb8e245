#include "workers/publish/media_stage.hpp"

#include "common/core/config/config.hpp"
#include "common/domain/social/media_plan.hpp"
#include "common/domain/social/publish_repository.hpp"
#include "common/domain/social/target_error.hpp"
#include "workers/errors.hpp"

#include <boost/fiber/fiber.hpp>
#include <boost/fiber/protected_fixedsize_stack.hpp>

#include <algorithm>
#include <cctype>
#include <vector>

namespace squawk::workers::publish {

social::TargetCheck target_check(TaskContext& context) {
    const bool allow_private = context.config().security.allow_private_targets;
    // Resolving blocks the thread: it runs on the executor, so only the fetching fiber waits.
    return [&context, allow_private](const std::string& url) {
        return context.executor().run([&] { return net::check_target(url, allow_private); });
    };
}

namespace {

constexpr size_t kFetchStackBytes = 128 * 1024;

// Runs fetch(i) for i in [0, count) at once, one fiber each; the HTTP client parks only them.
template <typename Fetch>
void each_at_once(size_t count, Fetch fetch) {
    std::vector<boost::fibers::fiber> fibers;
    fibers.reserve(count);
    for (size_t i = 0; i < count; ++i)
        fibers.emplace_back(std::allocator_arg,
                            boost::fibers::protected_fixedsize_stack(kFetchStackBytes),
                            [&fetch, i] { fetch(i); });
    for (auto& f : fibers) f.join();
}

std::vector<social::MediaProbe> probe_all(TaskContext& context,
                                          const std::vector<std::string>& urls) {
    const auto check = target_check(context);
    const auto timeout = std::chrono::milliseconds(context.config().social.media_probe_timeout_ms);
    std::vector<social::MediaProbe> probes(urls.size());
    each_at_once(urls.size(), [&](size_t i) {
        try {
            probes[i] = social::probe_media(*context.http(), urls[i], check, timeout);
        } catch (const std::exception& e) {
            probes[i].url = urls[i];
            probes[i].failure =
                social::ProbeFailure{false, std::string("the probe failed: ") + e.what(), 0};
        }
    });
    return probes;
}

// A name for the uploaded file: the URL's last path segment when it is a plain file name.
std::string upload_filename(const std::string& url, size_t index) {
    const auto path = url.substr(0, url.find_first_of("?#"));
    const auto name = path.substr(path.rfind('/') + 1);
    const bool plain =
        !name.empty() && name.size() <= 64 && name.front() != '.' &&
        std::all_of(name.begin(), name.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
        });
    return plain ? name : "image-" + std::to_string(index + 1);
}

// Downloads the items the plan uploads into message.uploads; the failures by item otherwise.
std::vector<social::MediaProbe> download_uploads(TaskContext& context,
                                                 const social::MediaPlan& plan,
                                                 const std::vector<social::MediaProbe>& probes,
                                                 social::Message& message) {
    const auto check = target_check(context);
    const auto timeout =
        std::chrono::milliseconds(context.config().social.media_download_timeout_ms);
    message.uploads.assign(probes.size(), std::nullopt);
    std::vector<social::MediaProbe> failed(probes.size());
    each_at_once(probes.size(), [&](size_t i) {
        if (!plan.uploads[i]) return;
        try {
            auto got = social::download_media(*context.http(), probes[i].url, check, timeout,
                                              plan.max_upload_bytes, probes[i].bytes);
            if (got.failure) {
                failed[i].failure = std::move(got.failure);
                return;
            }
            message.uploads[i] = social::Upload{upload_filename(probes[i].url, i),
                                                probes[i].content_type, std::move(got.bytes)};
        } catch (const std::exception& e) {
            failed[i].failure =
                social::ProbeFailure{false, std::string("the download failed: ") + e.what(), 0};
        }
    });
    std::vector<social::MediaProbe> out;
    for (size_t i = 0; i < probes.size(); ++i)
        if (failed[i].failure) {
            failed[i].url = probes[i].url;
            out.push_back(std::move(failed[i]));
        }
    if (!out.empty()) message.uploads.clear();
    return out;
}

// The media cannot go now: the job is retried, or on its last attempt the target fails.
MediaStage retry_or_fail(const jobs::ClaimedJob& job, TaskContext& context, long long target_id,
                         MediaStage out, const std::string& reason) {
    if (job.attempts >= job.max_attempts) {
        out.problem = target_error(social::TargetErrorCode::media_unavailable,
                                   "The media could not be fetched after " +
                                       std::to_string(job.attempts) + " attempts: " + reason,
                                   {{"reason", reason}});
        return out;
    }
    context.in_transaction(
        [&](db::Session& s) { social::PublishRepository::clear_sending(s, target_id); });
    throw RetryableError("media not reachable yet: " + reason);
}

}  // namespace

MediaStage process_media(const jobs::ClaimedJob& job, TaskContext& context, long long target_id,
                         const social::Connector& connector, social::Message& message) {
    const auto probes = probe_all(context, message.image_urls);
    const auto plan = social::plan_media(connector.platform(), connector.limits().media, probes);
    MediaStage out;
    out.fixes = plan.fixes;
    if (plan.problem) {
        out.problem = plan.problem;
        return out;
    }
    if (plan.retry_reason) return retry_or_fail(job, context, target_id, out, *plan.retry_reason);
    message.images_as_documents = plan.as_documents;
    if (std::find(plan.uploads.begin(), plan.uploads.end(), true) == plan.uploads.end()) return out;
    const auto failures = download_uploads(context, plan, probes, message);
    for (const auto& f : failures)
        if (f.failure->permanent) {
            out.problem = social::unavailable_problem(f.url, *f.failure);
            return out;
        }
    if (!failures.empty())
        return retry_or_fail(job, context, target_id, out,
                             failures.front().url + ": " + failures.front().failure->reason);
    return out;
}

}  // namespace squawk::workers::publish
