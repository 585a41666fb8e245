#include "common/extensions/platforms/facebook/post_rules.hpp"

namespace squawk::social::facebook {
namespace {

// developers.facebook.com/docs/video-api/guides/reels-publishing: reels last 3 to 90 seconds, a
// video story at most 60.
constexpr double kMinReelSeconds = 3;
constexpr double kMaxReelSeconds = 90;
constexpr double kMaxStorySeconds = 60;

std::optional<std::string> reel_problem(const Message& message) {
    if (!message.video) return "a Facebook reel is a video, and this post has none";
    const double seconds = message.video->duration_seconds;
    if (seconds > 0 && (seconds < kMinReelSeconds || seconds > kMaxReelSeconds))
        return "Facebook reels last 3 to 90 seconds";
    return std::nullopt;
}

std::optional<std::string> story_problem(const Message& message) {
    if (message.video) {
        if (message.video->duration_seconds > kMaxStorySeconds)
            return "Facebook video stories last at most 60 seconds";
        return std::nullopt;
    }
    if (message.image_urls.size() != 1)
        return "a Facebook story is one photo or one video, and this post has " +
               std::to_string(message.image_urls.size()) + " images";
    return std::nullopt;
}

}  // namespace

std::optional<std::string> post_problem(const Message& message) {
    for (size_t i = 0; i < message.image_urls.size(); ++i)
        if (message.upload_of(i))
            return "Facebook takes Page photos by public URL, and " + message.image_urls[i] +
                   " was to be uploaded";
    if (message.image_urls.size() > kMaxPhotos)
        return "a Facebook post has at most " + std::to_string(kMaxPhotos) + " photos";
    if (message.post_type == "reel") return reel_problem(message);
    if (message.post_type == "story") return story_problem(message);
    if (message.video && !message.image_urls.empty())
        return "a Facebook post has photos or one video, not both";
    return std::nullopt;
}

}  // namespace squawk::social::facebook
