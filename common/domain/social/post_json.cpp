#include "common/domain/social/post_json.hpp"

#include <algorithm>

namespace squawk::social {
namespace {

nlohmann::json optional_time(const std::optional<time::TimePoint>& t) {
    return t ? nlohmann::json(time::format_iso8601(*t)) : nlohmann::json(nullptr);
}

// One URL per platform, or a list when the post went to several accounts of that platform.
void add_url(nlohmann::json& urls, const std::string& platform, const std::string& url) {
    if (!urls.contains(platform)) {
        urls[platform] = url;
    } else if (urls[platform].is_string()) {
        urls[platform] = nlohmann::json::array({urls[platform], url});
    } else {
        urls[platform].push_back(url);
    }
}

nlohmann::json post_urls(const Post& p) {
    nlohmann::json urls = nlohmann::json::object();
    nlohmann::json errors = nlohmann::json::object();
    nlohmann::json transcodes = nlohmann::json::object();
    nlohmann::json warnings = nlohmann::json::object();
    for (const auto& t : p.targets) {
        if (t.url) add_url(urls, t.platform, *t.url);
        if (t.error.is_object()) errors[t.platform] = t.error.value("message", "");
        // Several accounts of one platform share its list.
        if (t.transcodes.is_array())
            for (const auto& fix : t.transcodes) transcodes[t.platform].push_back(fix);
        if (t.warnings.is_array())
            for (const auto& warning : t.warnings) warnings[t.platform].push_back(warning);
    }
    urls["_errors"] = std::move(errors);
    urls["_transcodes"] = std::move(transcodes);
    urls["_warnings"] = std::move(warnings);
    return urls;
}

nlohmann::json target_json(const PostTarget& t) {
    return {{"account_id", t.account_public_id},
            {"platform", t.platform},
            {"status", t.status},
            {"publish_stage", t.publish_stage ? nlohmann::json(*t.publish_stage) : nullptr},
            {"scheduled_time", time::format_iso8601(t.scheduled_time)},
            {"published_at", optional_time(t.published_at)},
            {"edited_at", optional_time(t.edited_at)},
            {"unpublished_at", optional_time(t.unpublished_at)},
            {"platform_post_id", t.external_id ? nlohmann::json(*t.external_id) : nullptr},
            {"url", t.url ? nlohmann::json(*t.url) : nullptr},
            {"error", t.error},
            {"warnings", t.warnings.is_array() ? t.warnings : nlohmann::json::array()}};
}

}  // namespace

nlohmann::json post_json(const Post& p) {
    std::vector<std::string> platforms;
    nlohmann::json stage = nullptr;
    nlohmann::json targets = nlohmann::json::array();
    for (const auto& t : p.targets) {
        if (std::find(platforms.begin(), platforms.end(), t.platform) == platforms.end())
            platforms.push_back(t.platform);
        if (t.publish_stage && stage.is_null()) stage = *t.publish_stage;
        targets.push_back(target_json(t));
    }
    nlohmann::json recycle = nullptr;
    if (p.recycle)
        recycle = {{"interval_hours", p.recycle->interval_hours},
                   {"max_repeats",
                    p.recycle->max_repeats ? nlohmann::json(*p.recycle->max_repeats) : nullptr},
                   {"until", optional_time(p.recycle->until)}};
    return {
        {"id", p.id},
        {"content", p.content},
        {"platforms", platforms},
        {"status", p.status},
        {"publish_stage", stage},
        {"scheduled_time", optional_time(p.scheduled_time)},
        {"published_at", optional_time(p.published_at)},
        {"created_at", time::format_iso8601(p.created_at)},
        {"updated_at", time::format_iso8601(p.updated_at)},
        {"link", p.link ? nlohmann::json(*p.link) : nullptr},
        {"media_urls", p.media_urls},
        {"platform_options", p.platform_options},
        {"first_comments", p.first_comments},
        {"metadata", p.metadata},
        {"queue_id", p.queue_id ? nlohmann::json(*p.queue_id) : nullptr},
        {"post_urls", post_urls(p)},
        {"targets", std::move(targets)},
        {"recycle", std::move(recycle)},
        {"recycle_count", p.recycle_count},
        {"recycle_parent_id", p.recycle_parent_id ? nlohmann::json(*p.recycle_parent_id) : nullptr},
        {"is_test", p.is_test}};
}

}  // namespace squawk::social
