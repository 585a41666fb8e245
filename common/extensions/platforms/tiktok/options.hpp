// A TikTok post's platform_options.tiktok: checked when the post is created (check_options), and
// turned into the post_info TikTok takes once the creator's settings are known at publish time.
#pragma once

#include "common/domain/social/connector.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::social::tiktok {

// privacy_level: one of TikTok's privacy levels; disable_comment, disable_duet and disable_stitch
// (the last two for videos only): booleans. Anything else is not an option of TikTok.
OptionProblems check_options(const nlohmann::json& options, std::string_view post_type);

// What /v2/post/publish/creator_info/query/ says the creator may post now.
struct CreatorInfo {
    std::vector<std::string> privacy_levels;  // privacy_level_options, in TikTok's order
    bool comment_disabled = false;
    bool duet_disabled = false;
    bool stitch_disabled = false;
    long long max_video_seconds = 0;  // 0: TikTok named no limit
};

CreatorInfo creator_info_of(const nlohmann::json& data);

// The post_info of a post with `options`: the privacy level asked for (which the creator must
// allow) or the creator's first, and each interaction disabled when the options or the creator's
// own settings say so. Either the object or the reason TikTok would refuse it.
struct PostInfo {
    nlohmann::json body;
    std::optional<std::string> refusal;
};
PostInfo post_info(const nlohmann::json& options, const CreatorInfo& creator, bool video);

}  // namespace squawk::social::tiktok
