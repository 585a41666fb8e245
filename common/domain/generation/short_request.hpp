// What a short job is asked for (POST /shorts/generate): the recording to cut, how its captions
// look and how long its clips are. The API validates against these bounds; the job reads it back.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::generation {

inline constexpr int kMaxShortClips = 5;
inline constexpr std::string_view kDefaultCaptionStyle = "karaoke";
inline constexpr std::string_view kAutoClipLength = "auto";

struct ShortRequest {
    std::string media_id;  // a ready audio or video of the workspace
    std::string caption_style{kDefaultCaptionStyle};
    std::vector<std::string> caption_format;   // of kCaptionFormats
    std::string clip_length{kAutoClipLength};  // of kClipLengths
    int max_clips = 1;
    std::string genre;  // of kShortGenres, or empty

    bool has_format(std::string_view format) const;

    nlohmann::json to_json() const;
    // Throws std::invalid_argument naming the member when `payload` is not a request this build
    // wrote.
    static ShortRequest from_json(const nlohmann::json& payload);
};

// The seconds of a fixed clip length ("30" -> 30); nothing for "auto".
std::optional<int> fixed_clip_seconds(std::string_view clip_length);

}  // namespace squawk::generation
