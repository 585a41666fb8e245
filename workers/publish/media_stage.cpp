#include "workers/publish/media_stage.hpp"

#include "common/core/config/config.hpp"
#include "common/core/log/logger.hpp"
#include "common/domain/media/media_inspector.hpp"
#include "common/domain/media/video_transcode.hpp"
#include "common/domain/social/media_plan.hpp"
#include "common/domain/social/publish_repository.hpp"
#include "common/domain/social/target_error.hpp"
#include "workers/errors.hpp"

#include <boost/fiber/fiber.hpp>
#include <boost/fiber/protected_fixedsize_stack.hpp>

#include <algorithm>
#include <cctype>
#include <exception>
#include <fstream>
#include <limits>
#include <vector>

namespace squawk::workers::publish {

social::TargetCheck target_check(const config::Config& config, BlockingExecutor& executor) {
    const bool allow_private = config.security.allow_private_targets;
    // Resolving blocks the thread: it runs on the executor, so only the fetching fiber waits.
    return [&executor, allow_private](const std::string& url) {
        return executor.run([&] { return net::check_target(url, allow_private); });
    };
}

std::shared_ptr<MediaCache> publish_media_cache(const config::Config& config) {
    return shared_media_cache(std::filesystem::path(config.media.dir) / ".publish-cache",
                              config.social.media_cache_bytes,
                              std::chrono::seconds(config.social.media_cache_ttl_seconds));
}

social::TargetCheck target_check(TaskContext& context) {
    return target_check(context.config(), context.executor());
}

namespace {

constexpr size_t kFetchStackBytes = 128 * 1024;

// Runs fetch(i) for i in [0, count) at once, the first on the calling fiber and each other on
// a fiber of its own; the HTTP client parks only them. A new fiber's stack is mapped for it and
// unmapped after, and the unmapping interrupts every core the process runs on to flush its TLB:
// a post with one medium, the usual case, makes no fiber.
template <typename Fetch>
void each_at_once(size_t count, Fetch fetch) {
    if (count == 0) return;
    std::vector<boost::fibers::fiber> others;
    others.reserve(count - 1);
    for (size_t i = 1; i < count; ++i)
        others.emplace_back(std::allocator_arg,
                            boost::fibers::protected_fixedsize_stack(kFetchStackBytes),
                            [&fetch, i] { fetch(i); });
    // The other fibers use the caller's locals: they end before anything leaves this frame.
    std::exception_ptr failure;
    try {
        fetch(0);
    } catch (...) {
        failure = std::current_exception();
    }
    for (auto& f : others) f.join();
    if (failure) std::rethrow_exception(failure);
}

Blocking blocking_on(BlockingExecutor& executor) {
    return [&executor](const std::function<void()>& work) { executor.run(work); };
}

std::vector<social::MediaProbe> probe_all(const MediaTools& tools,
                                          const std::vector<std::string>& urls) {
    const auto check = target_check(tools.config, tools.executor);
    const auto timeout = std::chrono::milliseconds(tools.config.social.media_probe_timeout_ms);
    std::vector<social::MediaProbe> probes(urls.size());
    each_at_once(urls.size(), [&](size_t i) {
        try {
            probes[i] = tools.cache.probe(
                urls[i], [&] { return social::probe_media(tools.http, urls[i], check, timeout); });
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

// An image the platform takes only as an upload, as a file of the cache: downloaded once for
// every post that uploads it.
CacheAnswer upload_file(const MediaTools& tools, const social::MediaProbe& probe,
                        long long max_bytes) {
    const auto check = target_check(tools.config, tools.executor);
    const auto timeout = std::chrono::milliseconds(tools.config.social.media_download_timeout_ms);
    const FileMaker download =
        [&](const std::filesystem::path& out) -> std::optional<social::ProbeFailure> {
        auto got =
            social::download_media(tools.http, probe.url, check, timeout, max_bytes, probe.bytes);
        if (got.failure) return got.failure;
        const bool written = tools.executor.run([&] {
            std::ofstream file(out, std::ios::binary | std::ios::trunc);
            file << got.bytes;
            file.close();
            return static_cast<bool>(file);
        });
        if (!written) return social::ProbeFailure{false, "the download cannot be written", 0};
        return std::nullopt;
    };
    return tools.cache.file(probe.url, "source", probe.bytes, max_bytes, probe.content_type,
                            download, {}, blocking_on(tools.executor));
}

// Downloads the items the plan uploads into message.uploads; the failures by item otherwise.
std::vector<social::MediaProbe> download_uploads(const MediaTools& tools,
                                                 const social::MediaPlan& plan,
                                                 const std::vector<social::MediaProbe>& probes,
                                                 social::Message& message) {
    message.uploads.assign(probes.size(), std::nullopt);
    std::vector<social::MediaProbe> failed(probes.size());
    each_at_once(probes.size(), [&](size_t i) {
        if (!plan.uploads[i]) return;
        try {
            const auto got = upload_file(tools, probes[i], plan.max_upload_bytes);
            if (got.failure) {
                failed[i].failure = got.failure;
                return;
            }
            auto bytes = tools.executor.run([&] { return fs::read_file(got.file->path()); });
            if (!bytes) {
                failed[i].failure =
                    social::ProbeFailure{false, "the downloaded file cannot be read", 0};
                return;
            }
            message.uploads[i] = social::Upload{upload_filename(probes[i].url, i),
                                                probes[i].content_type, std::move(*bytes)};
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

// The largest source video fetched for a platform: what a bitrate fit can still bring under its
// limit, or the largest upload the deployment accepts when the platform names no limit.
long long video_bound(const MediaTools& tools, const social::MediaRules& rules) {
    return rules.max_video_bytes > 0 ? social::video_source_bound(rules)
                                     : tools.config.media.max_upload_bytes;
}

Inspector inspector_on(const MediaTools& tools) {
    return [&tools](const std::filesystem::path& path) {
        return tools.executor.run(
            [&] { return media::inspect_media(path.string(), tools.config.media); });
    };
}

// The video as it was downloaded, read by ffprobe: once for every post that needs it.
CacheAnswer video_source(const MediaTools& tools, const social::MediaProbe& probe,
                         long long max_bytes) {
    const auto timeout = std::chrono::milliseconds(tools.config.social.media_download_timeout_ms);
    const auto check = target_check(tools.config, tools.executor);
    const FileMaker download =
        [&](const std::filesystem::path& out) -> std::optional<social::ProbeFailure> {
        net::CheckedTarget target;
        try {
            target = check(probe.url);
        } catch (const net::TargetRefused& e) {
            return social::ProbeFailure{true, std::string("the media URL is refused: ") + e.what(),
                                        0};
        }
        log::info("downloading a media file", {{"url", probe.url}});
        return tools.executor.run([&] {
            return social::download_media_file(probe.url, target, timeout, max_bytes, out);
        });
    };
    return tools.cache.file(probe.url, "source", probe.bytes, max_bytes, probe.content_type,
                            download, inspector_on(tools), blocking_on(tools.executor));
}

// The H.264/AAC MP4 of a source video fitted as asked, read by ffprobe: once for every post that
// needs it. Its name carries the source's size, so that a changed source is transcoded again, and
// the fit, so that platforms taking different frames or sizes each get theirs.
CacheAnswer video_mp4(const MediaTools& tools, const std::string& url, const CachedFile& source,
                      const media::VideoFit& fit) {
    const FileMaker make =
        [&](const std::filesystem::path& out) -> std::optional<social::ProbeFailure> {
        const auto error = tools.executor.run(
            [&] { return media::transcode_video(tools.config.media, source.path(), out, fit); });
        if (error) return social::ProbeFailure{true, *error, 0};
        return std::nullopt;
    };
    std::string variant = "mp4-" + std::to_string(source.bytes);
    if (fit.frame)
        variant += "-" + std::to_string(fit.frame->width) + "x" + std::to_string(fit.frame->height);
    if (fit.video_bits_per_second > 0)
        variant += "-" + std::to_string(fit.video_bits_per_second) + "bps";
    // The platform's limits judge the transcode itself (video_file_problem).
    return tools.cache.file(url, variant, std::nullopt, std::numeric_limits<long long>::max(),
                            "video/mp4", make, inspector_on(tools), blocking_on(tools.executor));
}

// A video file as the platform's limits see it.
social::Video video_of(const std::string& url, const CachedFile& file) {
    social::Video video;
    video.url = url;
    video.path = file.path().string();
    video.bytes = file.bytes;
    if (file.inspection) {
        video.duration_seconds = file.inspection->duration_seconds.value_or(0);
        video.width = file.inspection->width.value_or(0);
        video.height = file.inspection->height.value_or(0);
    }
    return video;
}

// What a downloaded video needs before the platform takes it: the transcode and why (no reason:
// it goes as it is), or the problem that fails it.
struct VideoFix {
    media::VideoFit fit;
    std::string reason;
    std::optional<nlohmann::json> problem;
};

void add_reason(VideoFix& fix, const std::string& reason) {
    fix.reason += (fix.reason.empty() ? "" : "; ") + reason;
}

// Fits the bitrate to the platform's size limit when `video` is over it.
void fit_bitrate(VideoFix& fix, const social::Connector& connector, const social::Video& video) {
    auto bitrate = social::fit_video_bitrate(connector.platform(), connector.limits().media, video);
    if (bitrate.problem) fix.problem = std::move(bitrate.problem);
    if (!bitrate.bitrate) return;
    fix.fit.video_bits_per_second = bitrate.bitrate->video_bits_per_second;
    add_reason(fix, bitrate.bitrate->reason);
}

VideoFix video_fix(const social::Connector& connector, const social::VideoPlan& plan,
                   const std::string& url, const CachedFile& source) {
    VideoFix fix;
    if (plan.transcode_reason) add_reason(fix, *plan.transcode_reason);
    const auto video = video_of(url, source);
    if (video.width > 0 && video.height > 0)
        if (const auto frame = social::fit_video_frame(
                connector.platform(), connector.limits().media, video.width, video.height)) {
            fix.fit.frame = frame->size;
            add_reason(fix, frame->reason);
        }
    fit_bitrate(fix, connector, video);
    return fix;
}

// The transcode `fix` asks for. H.264 can take more room than the source's codec did: a transcode
// over the limit that no bitrate held is made again at the bitrate that fits its own size.
CacheAnswer transcode(const MediaTools& tools, const social::Connector& connector,
                      const std::string& url, const CachedFile& source, VideoFix& fix) {
    auto mp4 = video_mp4(tools, url, source, fix.fit);
    if (!mp4.file || fix.fit.video_bits_per_second > 0) return mp4;
    fit_bitrate(fix, connector, video_of(url, *mp4.file));
    if (fix.problem || fix.fit.video_bits_per_second == 0) return mp4;
    return video_mp4(tools, url, source, fix.fit);
}

// The video as a file on this machine: downloaded, inspected, transcoded when the platform does
// not take it as it is, and checked against the platform's limits.
MediaStage process_video(const jobs::ClaimedJob& job, TaskContext& context, const MediaTools& tools,
                         long long target_id, const social::Connector& connector,
                         social::Message& message, const std::vector<social::MediaProbe>& probes) {
    MediaStage out;
    const auto& rules = connector.limits().media;
    const auto plan = social::plan_video(connector.platform(), rules, probes);
    if (plan.problem) {
        out.problem = plan.problem;
        return out;
    }
    if (plan.retry_reason) return retry_or_fail(job, context, target_id, out, *plan.retry_reason);
    const auto& probe = probes.front();
    const auto source = video_source(tools, probe, video_bound(tools, rules));
    if (source.failure && source.failure->permanent) {
        out.problem = social::unavailable_problem(probe.url, *source.failure);
        return out;
    }
    if (source.failure)
        return retry_or_fail(job, context, target_id, out,
                             probe.url + ": " + source.failure->reason);

    auto file = *source.file;
    auto fix = video_fix(connector, plan, probe.url, file);
    if (fix.problem) {
        out.problem = std::move(fix.problem);
        return out;
    }
    const bool transcoded = !fix.reason.empty();
    if (transcoded) {
        const auto mp4 = transcode(tools, connector, probe.url, file, fix);
        out.fixes.push_back({{"media_url", probe.url},
                             {"fix", "transcoded"},
                             {"reason", fix.reason},
                             {"succeeded", !mp4.failure}});
        if (mp4.failure) {
            out.problem = social::target_error(
                social::TargetErrorCode::media_unsupported_type,
                "The video could not be transcoded for " + std::string(connector.platform()) +
                    ": " + mp4.failure->reason,
                {{"media_url", probe.url}, {"content_type", probe.content_type}});
            return out;
        }
        if (fix.problem) {
            out.problem = std::move(fix.problem);
            return out;
        }
        file = *mp4.file;
    }
    out.files = file.link;
    if (!file.inspection) {
        out.problem = social::target_error(social::TargetErrorCode::media_unsupported_type,
                                           "The video cannot be read: " + file.unreadable,
                                           {{"media_url", probe.url}});
        return out;
    }
    auto video = video_of(probe.url, file);
    video.transcoded = transcoded;
    video.content_type = transcoded ? "video/mp4" : probe.content_type;
    if (auto problem = social::video_file_problem(connector.platform(), rules, video)) {
        out.problem = std::move(problem);
        return out;
    }
    message.image_urls.clear();
    message.video = std::move(video);
    return out;
}

}  // namespace

MediaStage process_media(const jobs::ClaimedJob& job, TaskContext& context, MediaCache& cache,
                         long long target_id, const social::Connector& connector,
                         social::Message& message) {
    const MediaTools tools{context.config(), context.executor(), *context.http(), cache};
    const auto probes = probe_all(tools, message.image_urls);
    if (social::has_video(probes))
        return process_video(job, context, tools, target_id, connector, message, probes);
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
    const auto failures = download_uploads(tools, plan, probes, message);
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

void prefetch_media(const MediaTools& tools, const social::Connector& connector,
                    const std::vector<std::string>& media_urls) {
    const auto probes = probe_all(tools, media_urls);
    const auto& rules = connector.limits().media;
    if (social::has_video(probes)) {
        const auto plan = social::plan_video(connector.platform(), rules, probes);
        if (plan.problem || plan.retry_reason) return;
        const auto& url = probes.front().url;
        const auto source = video_source(tools, probes.front(), video_bound(tools, rules));
        if (!source.file) return;
        auto fix = video_fix(connector, plan, url, *source.file);
        if (!fix.problem && !fix.reason.empty())
            transcode(tools, connector, url, *source.file, fix);
        return;
    }
    const auto plan = social::plan_media(connector.platform(), rules, probes);
    if (plan.problem || plan.retry_reason) return;
    each_at_once(probes.size(), [&](size_t i) {
        if (!plan.uploads[i]) return;
        try {
            upload_file(tools, probes[i], plan.max_upload_bytes);
        } catch (const std::exception& e) {
            log::warn("cannot prefetch an image; its publish fetches it",
                      {{"url", probes[i].url}, {"error", e.what()}});
        }
    });
}

}  // namespace squawk::workers::publish
