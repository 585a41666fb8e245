// A social post as stored: the post row and one target per account it goes to (spec 2.3), their
// statuses and the text a platform shows.
#pragma once

#include "common/core/time/clock.hpp"
#include "common/domain/social/post_status.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace squawk::social {

// Recycling: publish again every `interval_hours` until `max_repeats` or `until`.
struct RecycleRule {
    int interval_hours = 0;
    std::optional<int> max_repeats;
    std::optional<time::TimePoint> until;
};

struct PostTarget {
    long long id = 0;
    long long post_id = 0;
    long long account_id = 0;
    std::string account_public_id;
    std::string platform;
    TargetStatus status = TargetStatus::draft;
    std::optional<PublishStage> publish_stage;
    time::TimePoint scheduled_time;
    std::optional<long long> job_id;
    std::optional<std::string> external_id;
    std::optional<std::string> url;
    nlohmann::json error;       // null, or {code, message, detail}
    nlohmann::json transcodes;  // null, or an array of media fixes applied
    nlohmann::json warnings;    // null, or an array: what did not go out beside the message
    std::optional<time::TimePoint> published_at;
    std::optional<time::TimePoint> edited_at;
    std::optional<time::TimePoint> unpublished_at;
    // The edit or unpublish job that last changed the message.
    std::optional<long long> change_job_id;
};

// What a post says and how it repeats: the same in a post being written and a stored one, so a
// recycled occurrence copies it whole.
struct PostFields {
    long long workspace_id = 0;
    std::string content;
    std::optional<std::string> link;
    std::vector<std::string> media_urls;
    nlohmann::json platform_options = nlohmann::json::object();
    nlohmann::json first_comments;  // null when none
    bool is_test = false;
    std::optional<long long> queue_id;
    std::optional<RecycleRule> recycle;
    int recycle_count = 0;
    std::optional<long long> recycle_parent_id;
};

struct Post : PostFields {
    long long id = 0;
    PostStatus status = PostStatus::draft;
    nlohmann::json metadata = nlohmann::json::object();
    std::optional<time::TimePoint> scheduled_time;
    std::optional<time::TimePoint> published_at;
    time::TimePoint created_at;
    time::TimePoint updated_at;
    std::vector<PostTarget> targets;
};

// The text a platform shows for a post: the content, and the link when the content does not
// carry it.
std::string message_text(const std::string& content, const std::optional<std::string>& link);

}  // namespace squawk::social
