#include "common/extensions/platforms/tiktok/options.hpp"

#include <algorithm>
#include <iterator>

namespace squawk::social::tiktok {
namespace {

using nlohmann::json;

constexpr std::string_view kPrivacyLevels[] = {"PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS",
                                               "FOLLOWER_OF_CREATOR", "SELF_ONLY"};
constexpr std::string_view kVideoSwitches[] = {"disable_comment", "disable_duet", "disable_stitch"};

bool is_privacy_level(const json& value) {
    return value.is_string() && std::find(std::begin(kPrivacyLevels), std::end(kPrivacyLevels),
                                          value.get<std::string>()) != std::end(kPrivacyLevels);
}

bool flag(const json& data, const char* name) {
    return data.contains(name) && data[name].is_boolean() && data[name].get<bool>();
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

}  // namespace

OptionProblems check_options(const json& options, std::string_view post_type) {
    OptionProblems problems;
    for (const auto& [name, value] : options.items()) {
        const bool is_switch = std::find(std::begin(kVideoSwitches), std::end(kVideoSwitches),
                                         name) != std::end(kVideoSwitches);
        if (name == "privacy_level") {
            if (!is_privacy_level(value))
                problems.push_back({name,
                                    "must be PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, "
                                    "FOLLOWER_OF_CREATOR or SELF_ONLY"});
        } else if (!is_switch) {
            problems.push_back({name, "is not an option of tiktok"});
        } else if (post_type == "photo" && name != "disable_comment") {
            // Duets and stitches are made of videos: a photo post has neither to disable.
            problems.push_back({name, "applies to video posts only"});
        } else if (!value.is_boolean()) {
            problems.push_back({name, "must be true or false"});
        }
    }
    return problems;
}

CreatorInfo creator_info_of(const json& data) {
    CreatorInfo creator;
    if (data.contains("privacy_level_options") && data["privacy_level_options"].is_array())
        for (const auto& level : data["privacy_level_options"])
            if (level.is_string()) creator.privacy_levels.push_back(level.get<std::string>());
    creator.comment_disabled = flag(data, "comment_disabled");
    creator.duet_disabled = flag(data, "duet_disabled");
    creator.stitch_disabled = flag(data, "stitch_disabled");
    if (data.contains("max_video_post_duration_sec") &&
        data["max_video_post_duration_sec"].is_number_integer())
        creator.max_video_seconds = data["max_video_post_duration_sec"].get<long long>();
    return creator;
}

PostInfo post_info(const json& options, const CreatorInfo& creator, bool video) {
    PostInfo out;
    if (creator.privacy_levels.empty()) {
        out.refusal = "TikTok offers this account no privacy level to post with";
        return out;
    }
    std::string level = creator.privacy_levels.front();
    if (options.contains("privacy_level")) {
        level = options["privacy_level"].get<std::string>();
        if (std::find(creator.privacy_levels.begin(), creator.privacy_levels.end(), level) ==
            creator.privacy_levels.end()) {
            out.refusal = "this TikTok account cannot post as " + level + "; it allows " +
                          joined(creator.privacy_levels);
            return out;
        }
    }
    // TikTok asks that an interaction the creator turned off in the app stays off.
    out.body = {{"privacy_level", level},
                {"disable_comment", flag(options, "disable_comment") || creator.comment_disabled}};
    if (video) {
        out.body["disable_duet"] = flag(options, "disable_duet") || creator.duet_disabled;
        out.body["disable_stitch"] = flag(options, "disable_stitch") || creator.stitch_disabled;
    }
    return out;
}

}  // namespace squawk::social::tiktok
