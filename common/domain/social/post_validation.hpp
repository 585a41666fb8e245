// What a client asks a post to be (after its shape was checked) and the per-platform rules it
// must meet before anything is stored: text, caption and album limits, and soft warnings.
#pragma once

#include "common/domain/social/connector.hpp"
#include "common/domain/social/post.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::social {

// Link field of spec 8.3: http or https, a host, under 2,048 characters.
inline constexpr size_t kMaxLinkChars = 2047;
// The most any platform takes in one post (TikTok's photo posts); each holds it to its own.
inline constexpr size_t kMaxMediaItems = 35;

struct PostInput {
    std::string content;
    std::vector<std::string> platforms;    // every connected account on each
    std::vector<std::string> account_ids;  // public ids
    std::optional<std::string> link;
    std::vector<std::string> media_urls;
    nlohmann::json platform_options = nlohmann::json::object();  // as sent, keyed by platform
    std::map<std::string, time::TimePoint> platform_times;  // platform_options.<p>.scheduled_time
    std::optional<time::TimePoint> scheduled_time;
    // /schedule: every target needs a time, its platform's or the top-level one.
    bool time_required = false;
    nlohmann::json first_comments;  // null, or an array of strings
    bool allow_duplicates = false;
    std::optional<RecycleRule> recycle;
    bool draft = false;
    // Sent to a queue: the post takes the queue's next free slot as its time.
    std::optional<long long> queue_id;
};

// Problems keyed by field name (details.fields) and warnings keyed by platform (spec 2.3).
struct PlatformReview {
    std::map<std::string, std::string> problems;
    nlohmann::json warnings = nlohmann::json::object();
};

// The limits of every platform this build knows, as its factory declares them.
using LimitsTable = std::map<std::string, PlatformLimits, std::less<>>;
// Every registered platform's limits: they are compiled in, whatever the configuration.
const LimitsTable& known_limits();

// Checks the post against each platform it goes to, its platform_options included; throws
// ApiError POST_TYPE_UNSUPPORTED for a post_type a platform does not publish.
PlatformReview review_for_platforms(const PostInput& input,
                                    const std::vector<std::string>& platforms,
                                    const LimitsTable& limits);

// The accounts ({public id, row id}) of a post's targets (stored or new), by platform.
using AccountsByPlatform = std::map<std::string, std::vector<std::pair<std::string, long long>>>;
template <typename Targets>
AccountsByPlatform accounts_by_platform(const Targets& targets) {
    AccountsByPlatform out;
    for (const auto& t : targets) out[t.platform].emplace_back(t.account_public_id, t.account_id);
    return out;
}

// Runs each platform's admit_post for the post's accounts on it, in the caller's transaction;
// `post_id` is the post being edited (0 when creating). Throws the platform's ApiError.
void admit_for_platforms(db::Session& s, const AccountsByPlatform& accounts,
                         const nlohmann::json& platform_options, long long post_id);

// platform_options.<p> as its connector receives it (Message::options): without scheduled_time
// and post_type.
nlohmann::json platform_options_of(const nlohmann::json& given);
// platform_options.<p>.post_type, or the platform's default.
std::string post_type_of(const nlohmann::json& given, const PlatformFactory& platform);

// An absolute http(s) URL with a host (net::parse_url), a fragment allowed; `https_only` for media.
bool is_web_url(std::string_view url, bool https_only);

// Length in Unicode characters, as the platforms count text.
size_t utf8_length(std::string_view text);

}  // namespace squawk::social
