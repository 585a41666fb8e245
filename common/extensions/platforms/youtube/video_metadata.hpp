// What YouTube takes as a video's metadata, checked before any call: the options a post may carry
// (platform_options.youtube), the title and description YouTube would refuse, and what makes a
// video a Short. It builds the video resource the upload session starts with.
#pragma once

#include "common/domain/social/connector.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace squawk::social::youtube {

inline constexpr size_t kMaxTitleChars = 100;
inline constexpr size_t kMaxDescriptionBytes = 5000;
inline constexpr size_t kMaxTagsChars = 500;
inline constexpr double kMaxShortSeconds = 180;

// platform_options.youtube: title, privacy_status (public, unlisted, private), category_id
// (digits), tags (strings, 500 characters as YouTube counts them) and made_for_kids.
OptionProblems check_options(const nlohmann::json& options, std::string_view post_type);

// The title a video gets: the title option, else the text's first line cut to 100 characters;
// a Short's carries #Shorts.
std::string title_of(const Message& message);

// The video resource (snippet and status) of `message`, or why YouTube would refuse it.
struct VideoResource {
    nlohmann::json resource;
    std::optional<std::string> problem;
};
VideoResource video_resource(const Message& message);

}  // namespace squawk::social::youtube
