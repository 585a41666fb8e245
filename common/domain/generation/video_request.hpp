// What a video job is asked for (POST /videos/generate): narrated scenes over pictures, in one of
// the video sizes. The API validates against these bounds; the job reads the payload back here.
#pragma once

#include "common/domain/generation/image_provider.hpp"
#include "common/domain/generation/speech_provider.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::generation {

inline constexpr size_t kMaxVideoScenes = 20;
inline constexpr size_t kMaxSceneTextChars = 500;
inline constexpr size_t kMaxVideoTitleChars = 120;
// Landscape (the default), story and square.
inline constexpr std::string_view kVideoSizeNames[] = {"1920x1080", "1080x1920", "1080x1080"};

struct VideoScene {
    std::string text;            // narrated, and drawn on a card when there is no picture
    std::string image_media_id;  // a ready image of the workspace, or empty for a card
};

struct VideoRequest {
    std::string title;
    std::vector<VideoScene> scenes;
    ImageSize size{1920, 1080};
    std::string voice{kDefaultVoice};

    nlohmann::json to_json() const;
    // Throws std::invalid_argument naming the member when `payload` is not a request this build
    // wrote.
    static VideoRequest from_json(const nlohmann::json& payload);
};

// "1080x1920" -> {1080, 1920} when it is one of kVideoSizeNames.
std::optional<ImageSize> parse_video_size(std::string_view name);
std::string video_size_name(ImageSize size);

}  // namespace squawk::generation
