#include "common/domain/social/media_plan.hpp"

#include "common/domain/social/target_error.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace squawk::social {
namespace {

using nlohmann::json;

bool contains(std::span<const std::string_view> list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

// The platform as its factory names it ("YouTube", "TikTok"), in messages.
std::string display_name(std::string_view platform) {
    const auto* factory = find_platform(platform);
    return std::string(factory ? factory->display_name : platform);
}

json fix(const std::string& url, const char* kind, std::string reason) {
    return {{"media_url", url}, {"fix", kind}, {"reason", std::move(reason)}};
}

// "5 MB" for a platform's limit, which its documentation gives in whole megabytes.
std::string limit_text(long long bytes) {
    return bytes % 1'000'000 == 0 ? std::to_string(bytes / 1'000'000) + " MB" : megabytes(bytes);
}

// MEDIA_TOO_LARGE for a video of `bytes` over the platform's limit; `why` ends the sentence.
json over_size_limit(const std::string& name, const MediaRules& rules, const std::string& url,
                     long long bytes, const std::string& why = "") {
    return target_error(
        TargetErrorCode::media_too_large,
        "The video of " + megabytes(bytes) + " is over " + name + "'s " +
            limit_text(rules.max_video_bytes) + " limit" + why + ".",
        {{"media_url", url}, {"bytes", bytes}, {"max_bytes", rules.max_video_bytes}});
}

// How one probed item goes: as a photo or a document, by URL or uploaded (with why), or the
// problem.
struct ItemPlan {
    bool document = false;
    bool upload = false;
    std::string why;
    std::optional<json> problem;
};

ItemPlan as_upload(bool document, std::string why) {
    ItemPlan out;
    out.document = document;
    out.upload = true;
    out.why = std::move(why);
    return out;
}

// Spellings hosts send for JPEG besides the registered one.
std::string registered_type(const std::string& type) {
    return type == "image/jpg" || type == "image/pjpeg" ? "image/jpeg" : type;
}

bool within(long long limit, long long bytes) {
    return limit > 0 && bytes <= limit;
}

ItemPlan plan_item(const std::string& name, const MediaRules& rules, const MediaProbe& p) {
    ItemPlan out;
    const auto type = registered_type(p.content_type);
    const bool photo_type = contains(rules.photo_types, type);
    const bool document_type = contains(rules.document_types, type);
    if (!photo_type && !document_type) {
        json accepted = json::array();
        for (const auto& t : rules.photo_types) accepted.push_back(t);
        for (const auto& t : rules.document_types) accepted.push_back(t);
        out.problem = target_error(
            TargetErrorCode::media_unsupported_type,
            name + " does not take media of type " +
                (p.content_type.empty() ? std::string("(none given)") : p.content_type) + ".",
            {{"media_url", p.url}, {"content_type", p.content_type}, {"accepted", accepted}});
        return out;
    }
    // An unknown size is left to the platform, which fetches the file itself.
    const long long bytes = p.bytes.value_or(0);
    const std::string size = "image of " + megabytes(bytes) + " is over " + name + "'s ";
    if (photo_type) {
        if (!rules.photos_by_url && within(rules.max_photo_upload_bytes, bytes)) {
            out.upload = true;
            return out;
        }
        if (rules.photos_by_url && (rules.max_photo_bytes == 0 || bytes <= rules.max_photo_bytes))
            return out;
        const std::string by_url =
            size + limit_text(rules.max_photo_bytes) + " limit for photos sent by URL";
        if (within(rules.max_photo_upload_bytes, bytes)) return as_upload(false, by_url);
        if (within(rules.max_document_upload_bytes, bytes))
            return as_upload(true, rules.max_photo_upload_bytes > 0
                                       ? size + limit_text(rules.max_photo_upload_bytes) +
                                             " limit for uploaded photos"
                                       : by_url);
    } else {
        if (within(rules.max_document_bytes, bytes) || (rules.max_document_bytes > 0 && !p.bytes)) {
            out.document = true;
            out.why = p.content_type + " images go to " + name + " as documents";
            return out;
        }
        if (within(rules.max_document_upload_bytes, bytes))
            return as_upload(true, size + limit_text(rules.max_document_bytes) +
                                       " limit for documents sent by URL");
    }
    const long long max = std::max({rules.max_photo_bytes, rules.max_document_bytes,
                                    rules.max_photo_upload_bytes, rules.max_document_upload_bytes});
    out.problem = target_error(TargetErrorCode::media_too_large,
                               "The media of " + megabytes(bytes) + " is over " + name + "'s " +
                                   limit_text(max) + " limit.",
                               {{"media_url", p.url}, {"bytes", bytes}, {"max_bytes", max}});
    return out;
}

}  // namespace

json unavailable_problem(const std::string& url, const ProbeFailure& failure) {
    return target_error(
        TargetErrorCode::media_unavailable,
        "The media at " + url + " cannot be fetched: " + failure.reason + ".",
        {{"media_url", url}, {"reason", failure.reason}, {"http_status", failure.http_status}});
}

std::string megabytes(long long bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
    return text;
}

bool is_video_type(std::string_view content_type) {
    return content_type.starts_with("video/");
}

bool has_video(const std::vector<MediaProbe>& probes) {
    return std::any_of(probes.begin(), probes.end(),
                       [](const MediaProbe& p) { return is_video_type(p.content_type); });
}

VideoPlan plan_video(std::string_view platform, const MediaRules& rules,
                     const std::vector<MediaProbe>& probes) {
    VideoPlan plan;
    const std::string name = display_name(platform);
    for (const auto& p : probes)
        if (p.failure && p.failure->permanent) {
            plan.problem = unavailable_problem(p.url, *p.failure);
            return plan;
        }
    const auto& video = *std::find_if(probes.begin(), probes.end(), [](const MediaProbe& p) {
        return is_video_type(p.content_type);
    });
    if (rules.video_types.empty()) {
        plan.problem =
            target_error(TargetErrorCode::media_unsupported_type, name + " does not take videos.",
                         {{"media_url", video.url}, {"content_type", video.content_type}});
        return plan;
    }
    if (probes.size() > 1) {
        plan.problem = target_error(TargetErrorCode::too_many_media,
                                    "A post with a video carries no other media on " + name + ".",
                                    {{"media_url", video.url}, {"media", probes.size()}});
        return plan;
    }
    if (video.failure) {
        plan.retry_reason = video.url + ": " + video.failure->reason;
        return plan;
    }
    // A file the probe says no bitrate fit can bring under the limit fails now rather than
    // after a long download.
    if (video.bytes && rules.max_video_bytes > 0 && *video.bytes > video_source_bound(rules)) {
        plan.problem = over_size_limit(name, rules, video.url, *video.bytes,
                                       ", more than a lower bitrate can bring it down");
        return plan;
    }
    if (!contains(rules.video_types, video.content_type))
        plan.transcode_reason =
            name + " does not take " + video.content_type + " videos; transcoded to H.264/AAC MP4";
    return plan;
}

namespace {

int even_up(double pixels) {
    const int whole = static_cast<int>(std::ceil(pixels - 1e-9));
    return whole + whole % 2;
}

int even_down(double pixels) {
    const int whole = static_cast<int>(std::floor(pixels + 1e-9));
    return std::max(2, whole - whole % 2);
}

std::string aspect_text(double aspect) {
    char text[16];
    std::snprintf(text, sizeof text, "%.2f", aspect);
    return text;
}

std::string frame_text(int width, int height) {
    return std::to_string(width) + "x" + std::to_string(height);
}

}  // namespace

std::optional<VideoFrame> fit_video_frame(std::string_view platform, const MediaRules& rules,
                                          int width, int height) {
    if (width <= 0 || height <= 0) return std::nullopt;
    const double aspect = static_cast<double>(width) / height;
    double padded_width = width;
    double padded_height = height;
    if (rules.max_video_aspect > 0 && aspect > rules.max_video_aspect)
        padded_height = width / rules.max_video_aspect;
    if (rules.min_video_aspect > 0 && aspect < rules.min_video_aspect)
        padded_width = height * rules.min_video_aspect;
    const double long_side = std::max(padded_width, padded_height);
    const bool pads = padded_width != width || padded_height != height;
    const bool scales = rules.max_video_long_side > 0 && long_side > rules.max_video_long_side;
    if (!pads && !scales) return std::nullopt;

    VideoFrame frame;
    frame.size.pad_width = even_up(padded_width);
    frame.size.pad_height = even_up(padded_height);
    const double factor = scales ? rules.max_video_long_side / long_side : 1.0;
    frame.size.width = scales ? even_down(frame.size.pad_width * factor) : frame.size.pad_width;
    frame.size.height = scales ? even_down(frame.size.pad_height * factor) : frame.size.pad_height;
    std::string done;
    if (pads)
        done = frame_text(width, height) + " padded to " +
               frame_text(frame.size.pad_width, frame.size.pad_height);
    if (scales)
        done += (done.empty() ? frame_text(width, height) + " scaled to " : ", scaled to ") +
                frame_text(frame.size.width, frame.size.height);
    std::string takes;
    if (rules.max_video_aspect > 0)
        takes = "an aspect of " + aspect_text(rules.min_video_aspect) + " to " +
                aspect_text(rules.max_video_aspect);
    if (rules.max_video_long_side > 0)
        takes += (takes.empty() ? "" : " and ") + std::string("at most ") +
                 std::to_string(rules.max_video_long_side) + " pixels on the longer side";
    frame.reason = display_name(platform) + " takes videos of " + takes + "; " + done;
    return frame;
}

namespace {

// The part of the size limit a fitted video aims at: the container and the encoder's overshoot
// take the rest.
constexpr double kFitMargin = 0.9;
// Below this a picture of any frame is a blur.
constexpr long long kMinVideoBitsPerSecond = 150'000;

std::string kilobits(long long bits_per_second) {
    return std::to_string(bits_per_second / 1000) + " kbit/s";
}

}  // namespace

long long video_source_bound(const MediaRules& rules) {
    return rules.max_video_bytes * kMaxVideoShrink;
}

BitrateFit fit_video_bitrate(std::string_view platform, const MediaRules& rules,
                             const Video& video) {
    BitrateFit out;
    if (rules.max_video_bytes <= 0 || video.bytes <= rules.max_video_bytes) return out;
    const std::string name = display_name(platform);
    if (video.duration_seconds <= 0 || video.bytes > video_source_bound(rules)) {
        out.problem = over_size_limit(name, rules, video.url, video.bytes,
                                      ", more than a lower bitrate can bring it down");
        return out;
    }
    const auto total = static_cast<long long>(static_cast<double>(rules.max_video_bytes) * 8 *
                                              kFitMargin / video.duration_seconds);
    const long long picture = total - media::kTranscodeAudioBitsPerSecond;
    if (picture < kMinVideoBitsPerSecond) {
        out.problem = over_size_limit(
            name, rules, video.url, video.bytes,
            ": over " + std::to_string(std::lround(video.duration_seconds)) +
                " s it would fit only at " + kilobits(std::max(0LL, picture)) + ", under the " +
                kilobits(kMinVideoBitsPerSecond) + " a picture needs");
        return out;
    }
    out.bitrate = VideoBitrate{picture, "The video of " + megabytes(video.bytes) + " is over " +
                                            name + "'s " + limit_text(rules.max_video_bytes) +
                                            " limit; re-encoded at " + kilobits(picture)};
    return out;
}

std::optional<json> video_file_problem(std::string_view platform, const MediaRules& rules,
                                       const Video& video) {
    const std::string name = display_name(platform);
    if (rules.max_video_bytes > 0 && video.bytes > rules.max_video_bytes)
        return over_size_limit(name, rules, video.url, video.bytes);
    if (rules.max_video_seconds > 0 && video.duration_seconds > rules.max_video_seconds)
        return target_error(TargetErrorCode::media_too_large,
                            "The video lasts " +
                                std::to_string(std::lround(video.duration_seconds)) + " s, over " +
                                name + "'s limit of " +
                                std::to_string(std::lround(rules.max_video_seconds)) + " s.",
                            {{"media_url", video.url},
                             {"duration_seconds", video.duration_seconds},
                             {"max_seconds", rules.max_video_seconds}});
    return std::nullopt;
}

MediaPlan plan_media(std::string_view platform, const MediaRules& rules,
                     const std::vector<MediaProbe>& probes) {
    MediaPlan plan;
    const std::string name = display_name(platform);
    std::vector<ItemPlan> items;
    for (const auto& p : probes) {
        if (p.failure && p.failure->permanent) {
            plan.problem = unavailable_problem(p.url, *p.failure);
            break;
        }
        if (p.failure) {
            if (!plan.retry_reason) plan.retry_reason = p.url + ": " + p.failure->reason;
            items.emplace_back();
            continue;
        }
        auto item = plan_item(name, rules, p);
        if (item.problem) {
            plan.problem = std::move(item.problem);
            break;
        }
        items.push_back(std::move(item));
    }
    if (plan.problem) {
        plan.retry_reason.reset();
        return plan;
    }
    if (plan.retry_reason) return plan;

    const auto first_document =
        std::find_if(items.begin(), items.end(), [](const ItemPlan& i) { return i.document; });
    if (first_document == items.end()) {
        plan.max_upload_bytes = rules.max_photo_upload_bytes;
        for (size_t i = 0; i < items.size(); ++i) {
            plan.uploads.push_back(items[i].upload);
            // Only an upload instead of a URL has a reason; one the platform always takes is no
            // fix.
            if (items[i].upload && !items[i].why.empty())
                plan.fixes.push_back(fix(probes[i].url, "uploaded", items[i].why));
        }
        return plan;
    }
    plan.as_documents = true;
    plan.max_upload_bytes = rules.max_document_upload_bytes;
    const auto& document_url = probes[static_cast<size_t>(first_document - items.begin())].url;
    for (size_t i = 0; i < items.size(); ++i) {
        // Only the platform's document types go as documents by URL; a photo made a document
        // for the album's sake is uploaded where the platform takes uploads.
        const bool upload =
            items[i].upload ||
            (!items[i].document && rules.max_document_upload_bytes > 0 &&
             !contains(rules.document_types, registered_type(probes[i].content_type)));
        plan.uploads.push_back(upload);
        plan.fixes.push_back(fix(probes[i].url, "sent_as_document",
                                 items[i].document
                                     ? items[i].why
                                     : "the album goes as documents: " + name +
                                           " does not mix photos and documents in one album, and " +
                                           document_url + " is a document"));
    }
    return plan;
}

}  // namespace squawk::social
