#include "common/domain/social/post_validation.hpp"

#include "common/core/config/config.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/net/target_url.hpp"
#include "common/domain/social/alt_texts.hpp"

#include <algorithm>

namespace squawk::social {
namespace {

void add_problem(std::map<std::string, std::string>& problems, const std::string& field,
                 const std::string& reason) {
    auto& slot = problems[field];
    slot += (slot.empty() ? "" : "; ") + reason;
}

void add_warning(nlohmann::json& warnings, const std::string& platform, const std::string& text) {
    if (!warnings.contains(platform)) warnings[platform] = nlohmann::json::array();
    warnings[platform].push_back(text);
}

void review_one(const PostInput& input, const std::string& platform, const PlatformLimits& limits,
                PlatformReview& review) {
    if (!limits.can_publish) {
        add_problem(review.problems, "platforms", platform + " accounts cannot publish posts");
        return;
    }
    const size_t images = input.media_urls.size();
    const size_t text =
        limits.text_length ? limits.text_length(input.content) : utf8_length(input.content);
    // A platform that takes video takes one as a post's only media; whether an item is a video
    // is known once the publish worker probes it.
    const size_t max_media =
        std::max(limits.max_images, limits.media.video_types.empty() ? size_t{0} : size_t{1});
    if (images == 0 && limits.requires_media) {
        add_problem(review.problems, "media_urls", platform + " posts need an image or a video");
    } else if (images > 0 && max_media == 0) {
        add_problem(review.problems, "media_urls", platform + " posts cannot carry images");
    } else if (images > max_media) {
        add_problem(review.problems, "media_urls",
                    platform + " takes at most " + std::to_string(limits.max_images) + " images");
    } else if (images > 1 && limits.min_album_items > 0 &&
               (images < limits.min_album_items || images > limits.max_album_items)) {
        add_problem(review.problems, "media_urls",
                    platform + " albums take " + std::to_string(limits.min_album_items) + " to " +
                        std::to_string(limits.max_album_items) + " images");
    }
    const size_t max_text = images > 0 && limits.max_caption_chars > 0 ? limits.max_caption_chars
                                                                       : limits.max_text_chars;
    if (limits.text_problem)
        if (auto problem = limits.text_problem(input.content))
            add_problem(review.problems, "content", *problem);
    if (text > max_text)
        add_problem(review.problems, "content",
                    platform + " allows at most " + std::to_string(max_text) + " characters" +
                        (images > 0 ? " with media" : "") + " (this content has " +
                        std::to_string(text) + ")");
    // Soft problems: accepted, but the result will not look as the client may expect.
    if (input.link && images > 0)
        add_warning(review.warnings, platform,
                    "the link preview is not shown when images are attached");
    if (!limits.posts_first_comments && input.first_comments.is_array() &&
        !input.first_comments.empty())
        add_warning(review.warnings, platform,
                    "first_comments are stored but not posted on " + platform);
}

// platform_options.<platform> past scheduled_time: its post_type (422 POST_TYPE_UNSUPPORTED when
// the platform has no such type) and the options the platform's own check reads.
void review_options(const nlohmann::json& given, const PlatformFactory& platform,
                    size_t media_count, PlatformReview& review) {
    const std::string prefix = "platform_options." + std::string(platform.id) + ".";
    const auto type = given.find("post_type");
    if (type != given.end() && !type->is_string()) {
        add_problem(review.problems, prefix + "post_type", "must be a string");
        return;
    }
    const std::string post_type =
        type == given.end() ? std::string(default_post_type(platform)) : type->get<std::string>();
    if (!takes_post_type(platform, post_type))
        throw ApiError(ErrorCode::PostTypeUnsupported,
                       std::string(platform.display_name) +
                           " accepts these post types: " + accepted_post_types(platform) + ".",
                       {{"platform", platform.id},
                        {"post_type", post_type},
                        {"accepted_types", accepted_post_types(platform)}});
    for (const auto& rule : platform.post_type_media)
        if (rule.post_type == post_type &&
            (media_count < rule.min_items || media_count > rule.max_items))
            add_problem(review.problems, "media_urls",
                        "a " + post_type + " on " + std::string(platform.display_name) +
                            " carries " + std::string(rule.items) + "; this post has " +
                            std::to_string(media_count) + " media items");
    const auto options = platform_options_of(given);
    if (!platform.check_options) {
        for (const auto& [field, value] : options.items())
            add_problem(review.problems, prefix + field,
                        "is not an option of " + std::string(platform.id));
        return;
    }
    auto problems = platform.check_options(options, post_type);
    check_alt_texts_cover(options, media_count, "", problems);
    for (const auto& problem : problems)
        add_problem(review.problems, prefix + problem.field, problem.reason);
}

}  // namespace

void admit_for_platforms(db::Session& s, const AccountsByPlatform& accounts,
                         const nlohmann::json& platform_options, long long post_id) {
    for (const auto& [id, on_platform] : accounts) {
        const auto* platform = find_platform(id);
        if (!platform || !platform->admit_post) continue;
        const auto given = platform_options.find(id);
        PostAdmission admission;
        admission.accounts = on_platform;
        admission.post_type = post_type_of(
            given == platform_options.end() ? nlohmann::json::object() : *given, *platform);
        admission.post_id = post_id;
        admission.now = time::now();
        platform->admit_post(s, admission);
    }
}

nlohmann::json platform_options_of(const nlohmann::json& given) {
    nlohmann::json out = nlohmann::json::object();
    if (!given.is_object()) return out;
    for (const auto& [field, value] : given.items())
        if (field != "scheduled_time" && field != "post_type") out[field] = value;
    return out;
}

std::string post_type_of(const nlohmann::json& given, const PlatformFactory& platform) {
    const auto type = given.is_object() ? given.find("post_type") : given.end();
    if (given.is_object() && type != given.end() && type->is_string())
        return type->get<std::string>();
    return std::string(default_post_type(platform));
}

const LimitsTable& known_limits() {
    static const LimitsTable table = [] {
        LimitsTable out;
        for (const auto& platform : registered_platforms())
            out.emplace(std::string(platform.id), platform.limits);
        return out;
    }();
    return table;
}

size_t utf8_length(std::string_view text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

bool is_web_url(std::string_view url, bool https_only) {
    // A post's link may point into a page; the target parser refuses fragments, so they are
    // checked apart: no whitespace or control characters.
    const auto hash = url.find('#');
    if (hash != std::string_view::npos &&
        std::any_of(url.begin() + static_cast<long>(hash), url.end(),
                    [](char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f; }))
        return false;
    try {
        const auto parsed = net::parse_url(url.substr(0, hash));
        return !https_only || parsed.scheme == "https";
    } catch (const net::TargetRefused&) {
        return false;
    }
}

PlatformReview review_for_platforms(const PostInput& input,
                                    const std::vector<std::string>& platforms,
                                    const LimitsTable& limits) {
    PlatformReview review;
    for (const auto& platform : platforms) {
        const auto it = limits.find(platform);
        if (it == limits.end()) {
            add_problem(review.problems, "platforms", "unknown platform: " + platform);
            continue;
        }
        review_one(input, platform, it->second, review);
        if (const auto* factory = find_platform(platform); factory) {
            const auto given = input.platform_options.find(platform);
            review_options(
                given == input.platform_options.end() ? nlohmann::json::object() : *given, *factory,
                input.media_urls.size(), review);
        }
    }
    for (const auto& [platform, options] : input.platform_options.items())
        if (std::find(platforms.begin(), platforms.end(), platform) == platforms.end())
            add_problem(review.problems, "platform_options." + platform,
                        "the post does not go to " + platform);
    if (input.time_required && !input.scheduled_time)
        for (const auto& platform : platforms)
            if (!input.platform_times.count(platform))
                add_problem(review.problems, "scheduled_time",
                            "is required unless every platform has its own in platform_options "
                            "(missing for " +
                                platform + ")");
    return review;
}

}  // namespace squawk::social
