#include "workers/publish/media_stage.hpp"

#include "common/core/config/config.hpp"
#include "common/core/process/subprocess.hpp"
#include "common/domain/media/media_inspector.hpp"
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

// ffmpeg's H.264/AAC MP4 of `input`, streaming-ready (moov atom first).
std::optional<std::string> transcode(const config::MediaSettings& settings,
                                     const std::filesystem::path& input,
                                     const std::filesystem::path& output) {
    process::SubprocessRequest request;
    // "file:" keeps ffmpeg from reading any part of a path as a protocol or an option.
    request.argv = {settings.ffmpeg,
                    "-nostdin",
                    "-v",
                    "error",
                    "-y",
                    "-i",
                    "file:" + input.string(),
                    "-map",
                    "0:v:0",
                    "-map",
                    "0:a:0?",
                    "-c:v",
                    "libx264",
                    "-preset",
                    "veryfast",
                    "-pix_fmt",
                    "yuv420p",
                    "-c:a",
                    "aac",
                    "-b:a",
                    "128k",
                    "-movflags",
                    "+faststart",
                    "file:" + output.string()};
    request.timeout = std::chrono::seconds(settings.transcode_timeout_seconds);
    const auto result = process::run_subprocess(request);
    if (result.exit_code == 0) return std::nullopt;
    if (result.timed_out) return "ffmpeg did not finish in time";
    return "ffmpeg failed: " + result.stderr_text.substr(0, 300);
}

// The video as a file on this machine: downloaded, inspected, transcoded when the plan says so,
// and checked against the platform's limits.
MediaStage process_video(const jobs::ClaimedJob& job, TaskContext& context, long long target_id,
                         const social::Connector& connector, social::Message& message,
                         const std::vector<social::MediaProbe>& probes) {
    MediaStage out;
    const auto& rules = connector.limits().media;
    const auto plan = social::plan_video(connector.platform(), rules, probes);
    if (plan.problem) {
        out.problem = plan.problem;
        return out;
    }
    if (plan.retry_reason) return retry_or_fail(job, context, target_id, out, *plan.retry_reason);
    const auto& probe = probes.front();
    const auto& settings = context.config().media;

    out.files = std::make_shared<fs::ScratchDirectory>("squawk-video-");
    const auto source = *out.files / "source";
    net::CheckedTarget target;
    try {
        target = target_check(context)(probe.url);
    } catch (const net::TargetRefused& e) {
        out.problem = social::unavailable_problem(
            probe.url, {true, std::string("the media URL is refused: ") + e.what(), 0});
        return out;
    }
    const auto timeout =
        std::chrono::milliseconds(context.config().social.media_download_timeout_ms);
    // Transcoding rarely shrinks a file much: the bound is what this platform takes (or the
    // largest upload the deployment accepts when the platform names no limit).
    const long long max_bytes =
        rules.max_video_bytes > 0 ? rules.max_video_bytes : settings.max_upload_bytes;
    const auto failure = context.executor().run(
        [&] { return social::download_media_file(probe.url, target, timeout, max_bytes, source); });
    if (failure && failure->permanent) {
        out.problem = social::unavailable_problem(probe.url, *failure);
        return out;
    }
    if (failure)
        return retry_or_fail(job, context, target_id, out, probe.url + ": " + failure->reason);

    auto file = source;
    std::string content_type = probe.content_type;
    if (plan.transcode_reason) {
        const auto mp4 = *out.files / "video.mp4";
        const auto error = context.executor().run([&] { return transcode(settings, source, mp4); });
        out.fixes.push_back({{"media_url", probe.url},
                             {"fix", "transcoded"},
                             {"reason", *plan.transcode_reason},
                             {"succeeded", !error}});
        if (error) {
            out.problem = social::target_error(
                social::TargetErrorCode::media_unsupported_type,
                "The video could not be transcoded for " + std::string(connector.platform()) +
                    ": " + *error,
                {{"media_url", probe.url}, {"content_type", probe.content_type}});
            return out;
        }
        file = mp4;
        content_type = "video/mp4";
    }
    social::Video video;
    video.url = probe.url;
    video.path = file.string();
    video.content_type = content_type;
    try {
        const auto seen =
            context.executor().run([&] { return media::inspect_media(video.path, settings); });
        video.duration_seconds = seen.duration_seconds.value_or(0);
        video.width = seen.width.value_or(0);
        video.height = seen.height.value_or(0);
    } catch (const media::UnacceptableMedia& e) {
        out.problem = social::target_error(social::TargetErrorCode::media_unsupported_type,
                                           std::string("The video cannot be read: ") + e.what(),
                                           {{"media_url", probe.url}});
        return out;
    }
    std::error_code ec;
    video.bytes = static_cast<long long>(std::filesystem::file_size(file, ec));
    if (auto problem = social::video_file_problem(connector.platform(), rules, video)) {
        out.problem = std::move(problem);
        return out;
    }
    message.image_urls.clear();
    message.video = std::move(video);
    return out;
}

}  // namespace

MediaStage process_media(const jobs::ClaimedJob& job, TaskContext& context, long long target_id,
                         const social::Connector& connector, social::Message& message) {
    const auto probes = probe_all(context, message.image_urls);
    if (social::has_video(probes))
        return process_video(job, context, target_id, connector, message, probes);
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
