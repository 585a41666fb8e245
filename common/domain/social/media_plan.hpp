// How a platform gets a post's media, decided from its MediaRules and the probes: each item sent
// as a photo or a document, by URL or uploaded, with the fixes applied, a retry later, or the
// problem that fails it.
#pragma once

#include "common/domain/media/video_transcode.hpp"
#include "common/domain/social/connector.hpp"
#include "common/domain/social/media_probe.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace squawk::social {

struct MediaPlan {
    // Every item goes as a document (see Message::images_as_documents).
    bool as_documents = false;
    // Per item in the media order: whether it is downloaded and uploaded rather than sent by URL.
    std::vector<bool> uploads;
    // The most an uploaded item may weigh: the platform's upload limit for its kind.
    long long max_upload_bytes = 0;
    // {media_url, fix, reason} for each item not sent as given.
    nlohmann::json fixes = nlohmann::json::array();
    // {code, message, detail} when the media cannot go: MEDIA_UNAVAILABLE,
    // MEDIA_UNSUPPORTED_TYPE or MEDIA_TOO_LARGE.
    std::optional<nlohmann::json> problem;
    // Set when a host failed for now and nothing is wrong for good: ask again later.
    std::optional<std::string> retry_reason;
};

// How a post's video reaches the platform: downloaded to a file and uploaded from it, first
// transcoded when the platform does not take its container; or the problem that fails it.
struct VideoPlan {
    std::optional<std::string> transcode_reason;  // set: transcode to H.264/AAC MP4 first
    std::optional<nlohmann::json> problem;
    std::optional<std::string> retry_reason;
};

bool is_video_type(std::string_view content_type);
// Whether the probed media hold a video (which then must be the post's only media item).
bool has_video(const std::vector<MediaProbe>& probes);
VideoPlan plan_video(std::string_view platform, const MediaRules& rules,
                     const std::vector<MediaProbe>& probes);
// The frame a video is transcoded to for a platform, and why.
struct VideoFrame {
    media::PaddedFrame size;
    std::string reason;  // what the platform takes and what was done, for the fix's record
};

// The frame a width x height video needs on the platform, or nothing when it takes it as it is.
std::optional<VideoFrame> fit_video_frame(std::string_view platform, const MediaRules& rules,
                                          int width, int height);
// A video over a platform's size limit is re-encoded at the bitrate that brings it under, when
// that takes it to no less than this part of its size: past it the picture is not worth watching.
inline constexpr long long kMaxVideoShrink = 4;
// The largest source video fetched for a platform with a size limit: what the bitrate fit can
// still bring under it.
long long video_source_bound(const MediaRules& rules);

// The picture's bitrate that brings a video under the platform's size limit, and why.
struct VideoBitrate {
    long long video_bits_per_second = 0;
    std::string reason;  // the limit and the bitrate, for the fix's record
};
struct BitrateFit {
    std::optional<VideoBitrate> bitrate;    // nothing: the video is within the limit as it is
    std::optional<nlohmann::json> problem;  // MEDIA_TOO_LARGE: no watchable bitrate fits it
};
// How a video file (its bytes and duration) fits the platform's size limit.
BitrateFit fit_video_bitrate(std::string_view platform, const MediaRules& rules,
                             const Video& video);

// The problem a video file (after any transcode) has with the platform's size and duration
// limits, or nothing.
std::optional<nlohmann::json> video_file_problem(std::string_view platform, const MediaRules& rules,
                                                 const Video& video);

// Probes are in the post's media order. A permanent problem wins over a temporary failure, so
// that a post that cannot go is not retried.
MediaPlan plan_media(std::string_view platform, const MediaRules& rules,
                     const std::vector<MediaProbe>& probes);

// The MEDIA_UNAVAILABLE problem for a media URL that cannot be fetched for good.
nlohmann::json unavailable_problem(const std::string& url, const ProbeFailure& failure);

// "7.2 MB": sizes as the platforms' documentation writes them (decimal megabytes).
std::string megabytes(long long bytes);

}  // namespace squawk::social
