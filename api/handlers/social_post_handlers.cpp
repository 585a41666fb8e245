// Social posts (issue 4, spec 4.1 and 4.3): create, schedule, bulk, list, read, change, edit
// once published, metadata, cancel or unpublish, stop recycling. Scopes social:read / :write.
#include "api/handlers/route_families.hpp"

#include "api/render/post_change_json.hpp"
#include "api/render/post_json.hpp"
#include "api/server/pagination.hpp"
#include "api/server/path_ids.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/core/config/config.hpp"
#include "common/core/error/api_error.hpp"
#include "common/domain/social/post_change_service.hpp"
#include "common/domain/social/post_csv.hpp"
#include "common/domain/social/post_service.hpp"

#include <array>

#include <limits>

namespace squawk::api::handlers {
namespace {

constexpr size_t kMaxContentChars = 10000;
constexpr size_t kMaxPlatforms = 20;
constexpr size_t kMaxPlatformChars = 32;
constexpr size_t kMaxAccountIds = 100;
constexpr size_t kMaxFirstComments = 10;
constexpr size_t kMaxCommentChars = 2000;
constexpr size_t kMaxBulkRows = 50;
constexpr long long kMaxIntervalHours = 24LL * 365;
constexpr int kMaxRepeats = 100;
constexpr auto kMaxRecycleAhead = std::chrono::hours(24 * 730);

// Where a post's times come from: /social/posts publishes now unless a platform names a time,
// /schedule needs one for every target, bulk rows may carry one.
enum class Timing { now, schedule, bulk };

social::PostService posts(Services& services) {
    return social::PostService(services.mysql, services.redis, services.post_creations);
}

social::PostChangeService changes(Services& services) {
    return social::PostChangeService(services.mysql, services.submitter, social::known_limits());
}

std::optional<time::TimePoint> future_time(Validator& v, const std::string& name) {
    auto t = v.optional_timestamp(name);
    if (t && *t <= time::now()) {
        v.reject(name, "must be in the future");
        return std::nullopt;
    }
    return t;
}

// platform_options: an object per platform. `scheduled_time` is read here; `post_type` and the
// platform's own options are its factory's to check (social::review_for_platforms).
void read_platform_options(Validator& v, nlohmann::json& options,
                           std::map<std::string, time::TimePoint>& times) {
    const auto* given = v.optional_object("platform_options");
    if (!given) return;
    options = *given;
    for (const auto& [platform, value] : given->items()) {
        if (!value.is_object()) {
            v.reject("platform_options." + platform, "must be an object");
            continue;
        }
        Validator nested(value, "platform_options." + platform + ".");
        if (auto t = future_time(nested, "scheduled_time")) times[platform] = *t;
        v.merge(nested);
    }
}

std::optional<std::string> read_link(Validator& v) {
    auto link = v.optional_string("link", social::kMaxLinkChars);
    if (link && !social::is_web_url(*link, false)) {
        v.reject("link", "must be an http or https URL with a host");
        return std::nullopt;
    }
    return link;
}

// Media URLs follow the outgoing target rule: https, unless the development setting
// security.allow_private_targets lets loopback fakes (plain http) stand in for media hosts.
std::optional<std::vector<std::string>> read_media(Validator& v, bool allow_private_targets) {
    auto media =
        v.optional_string_array("media_urls", social::kMaxMediaItems, social::kMaxLinkChars, {}, 0);
    if (!media) return media;
    for (const auto& url : *media)
        if (!social::is_web_url(url, !allow_private_targets)) {
            v.reject("media_urls", "every item must be an https URL with a host: " + url);
            return std::nullopt;
        }
    return media;
}

std::optional<social::RecycleRule> read_recycle(Validator& v) {
    const auto* given = v.optional_object("recycle");
    if (!given) return std::nullopt;
    Validator nested(*given, "recycle.");
    social::RecycleRule rule;
    const auto interval = nested.optional_integer("interval_hours", 1, kMaxIntervalHours);
    const auto repeats = nested.optional_integer("max_repeats", 1, kMaxRepeats);
    const auto until = future_time(nested, "until");
    if (until && *until > time::now() + kMaxRecycleAhead)
        nested.reject("until", "must be at most 2 years ahead");
    nested.reject_unknown_fields();
    if (!interval && !nested.problems().count("recycle.interval_hours"))
        nested.reject("interval_hours", "is required");
    if (!given->contains("max_repeats") && !given->contains("until"))
        v.reject("recycle", "needs a bound: max_repeats, until or both");
    v.merge(nested);
    if (!interval) return std::nullopt;
    rule.interval_hours = static_cast<int>(*interval);
    if (repeats) rule.max_repeats = static_cast<int>(*repeats);
    rule.until = until;
    return rule;
}

social::PostInput read_post(Validator& v, Timing timing, bool allow_private_targets) {
    social::PostInput in;
    in.content = v.required_string("content", kMaxContentChars);
    in.platforms = v.optional_string_array("platforms", kMaxPlatforms, kMaxPlatformChars)
                       .value_or(std::vector<std::string>{});
    in.account_ids = v.optional_string_array("account_ids", kMaxAccountIds, kMaxIdChars)
                         .value_or(std::vector<std::string>{});
    if (in.platforms.empty() && in.account_ids.empty() && !v.problems().count("platforms") &&
        !v.problems().count("account_ids"))
        v.reject("platforms", "give platforms, account_ids or both");
    in.link = read_link(v);
    in.media_urls = read_media(v, allow_private_targets).value_or(std::vector<std::string>{});
    read_platform_options(v, in.platform_options, in.platform_times);
    if (timing == Timing::now) {
        if (v.optional_timestamp("scheduled_time"))
            v.reject("scheduled_time",
                     "is taken by /social/posts/schedule; this route publishes now");
    } else {
        in.scheduled_time = future_time(v, "scheduled_time");
    }
    in.queue_id = v.optional_integer("queue_id", 1, std::numeric_limits<long long>::max());
    if (in.queue_id && timing == Timing::now)
        v.reject("queue_id", "is taken by /social/posts/schedule; this route publishes now");
    if (in.queue_id && (in.scheduled_time || !in.platform_times.empty()))
        v.reject("queue_id", "takes the queue's next free slot; send no scheduled_time with it");
    in.time_required = timing == Timing::schedule && !in.queue_id;
    if (auto comments =
            v.optional_string_array("first_comments", kMaxFirstComments, kMaxCommentChars))
        in.first_comments = *comments;
    in.allow_duplicates = v.optional_bool("allow_duplicates").value_or(false);
    in.recycle = read_recycle(v);
    in.draft = v.optional_bool("draft").value_or(false);
    v.reject_unknown_fields();
    return in;
}

Reply create(const RequestContext& ctx, Services& services, Timing timing) {
    Validator body(ctx.body);
    const auto input = read_post(body, timing, services.config.security.allow_private_targets);
    body.finish();
    return Reply::ok(
        render::created_post_json(posts(services).create(ctx.workspace_id, ctx.is_test, input)),
        201);
}

Reply bulk(const RequestContext& ctx, Services& services, bool dry_run) {
    Validator body(ctx.body);
    std::vector<nlohmann::json> rows;
    const auto* list = body.optional_array("posts", 1, kMaxBulkRows);
    const auto csv = body.optional_string("csv", social::kMaxCsvBytes);
    body.reject_unknown_fields();
    if (list && csv) {
        body.reject("posts", "give either posts or csv, not both");
    } else if (list) {
        rows.assign(list->begin(), list->end());
    } else if (csv) {
        auto parsed = social::csv_posts(*csv, kMaxBulkRows);
        if (parsed.error)
            body.reject("csv", *parsed.error);
        else
            rows = std::move(parsed.posts);
    } else if (body.problems().empty()) {
        body.reject("posts", "give posts (an array of up to 50 posts) or csv (a string)");
    }
    body.finish();

    std::vector<social::PostInput> inputs;
    std::vector<social::RowProblem> problems;
    for (size_t i = 0; i < rows.size(); ++i) {
        Validator row(rows[i]);
        if (!rows[i].is_object()) row.reject("post", "must be an object");
        inputs.push_back(
            read_post(row, Timing::bulk, services.config.security.allow_private_targets));
        if (!row.problems().empty()) problems.push_back({i, row.problems()});
    }
    const auto batch = posts(services).create_batch(ctx.workspace_id, ctx.is_test, inputs,
                                                    std::move(problems), dry_run);
    return Reply::ok(render::post_batch_json(batch, dry_run), dry_run ? 200 : 201);
}

Reply create_post(const RequestContext& ctx, Services& services) {
    return create(ctx, services, Timing::now);
}

Reply schedule_post(const RequestContext& ctx, Services& services) {
    return create(ctx, services, Timing::schedule);
}

Reply bulk_posts(const RequestContext& ctx, Services& services) {
    return bulk(ctx, services, false);
}

Reply validate_bulk_posts(const RequestContext& ctx, Services& services) {
    return bulk(ctx, services, true);
}

Reply list_posts(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    const PageRequest page = read_page(query);
    social::PostFilter filter;
    filter.status = query.optional_enum<social::PostStatus>("status");
    filter.platform = query.optional_string("platform", kMaxPlatformChars).value_or("");
    query.finish();
    const auto found = posts(services).list(ctx.workspace_id, filter, page.offset(), page.per_page);
    nlohmann::json items = nlohmann::json::array();
    for (const auto& p : found.items) items.push_back(social::post_json(p));
    auto pagination = pagination_json(page, found.total);
    // The posts listing names its page count `pages` (spec 2.2).
    pagination["pages"] = pagination["total_pages"];
    pagination.erase("total_pages");
    return Reply::page(std::move(items), std::move(pagination));
}

Reply get_post(const RequestContext& ctx, Services& services) {
    return Reply::ok(
        social::post_json(posts(services).get(ctx.workspace_id, integer_path_id(ctx, "post_id"))));
}

Reply update_post(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    social::PostChange change;
    change.content = body.optional_string("content", kMaxContentChars);
    if (change.content && change.content->find_first_not_of(" \t\r\n") == std::string::npos)
        body.reject("content", "must not be blank");
    change.link = read_link(body);
    change.media_urls = read_media(body, services.config.security.allow_private_targets);
    change.scheduled_time = future_time(body, "scheduled_time");
    nlohmann::json options = nullptr;
    read_platform_options(body, options, change.platform_times);
    if (!options.is_null()) change.platform_options = options;
    body.reject_unknown_fields();
    body.finish();
    if (!ctx.body.is_object() || ctx.body.empty())
        throw validation_error({{"body",
                                 "give at least one of content, link, media_urls, "
                                 "scheduled_time, platform_options"}});
    return Reply::ok(social::post_json(
        posts(services).update(ctx.workspace_id, integer_path_id(ctx, "post_id"), change)));
}

Reply update_post_metadata(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const auto* metadata = body.optional_object("metadata");
    if (!metadata && !body.problems().count("metadata")) body.reject("metadata", "is required");
    body.reject_unknown_fields();
    body.finish();
    return Reply::ok(social::post_json(posts(services).update_metadata(
        ctx.workspace_id, integer_path_id(ctx, "post_id"), *metadata)));
}

Reply edit_post(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    social::PostEdit edit;
    edit.content = body.required_string("content", kMaxContentChars);
    edit.link = read_link(body);
    body.reject_unknown_fields();
    body.finish();
    const auto post_id = integer_path_id(ctx, "post_id");
    const auto accepted = changes(services).edit(ctx.workspace_id, ctx.is_test, post_id, edit);
    return Reply::ok(render::accepted_edit_json(accepted, post_id), 202);
}

Reply delete_post(const RequestContext& ctx, Services& services) {
    const auto id = integer_path_id(ctx, "post_id");
    // A published post is unpublished by a job; one not published yet is cancelled at once.
    if (auto job = changes(services).unpublish(ctx.workspace_id, ctx.is_test, id))
        return Reply::ok(render::accepted_change_json(*job, id), 202);
    posts(services).cancel(ctx.workspace_id, id);
    // 204 carries no body (RFC 9110), so no envelope either.
    Reply reply = Reply::send_raw({"", "application/json"});
    reply.status = 204;
    return reply;
}

Reply stop_post_recycling(const RequestContext& ctx, Services& services) {
    return Reply::ok(render::stopped_recycling_json(
        posts(services).stop_recycling(ctx.workspace_id, integer_path_id(ctx, "post_id"))));
}

}  // namespace

template <>
std::span<const Route> routes<Family::social_posts>() {
    constexpr Access kRead = Access::needs("social:read");
    constexpr Access kWrite = Access::needs("social:write");
    // Creating posts is not billed: publishing is charged per connected account (spec 8.3).
    static constexpr std::array kRoutes{
        Route::post("/v1/social/posts", kWrite, create_post).keyed_by_request_id(),
        Route::post("/v1/social/posts/schedule", kWrite, schedule_post).keyed_by_request_id(),
        Route::post("/v1/social/posts/bulk", kWrite, bulk_posts),
        Route::post("/v1/social/posts/bulk/validate", kRead, validate_bulk_posts),
        Route::get("/v1/social/posts", kRead, list_posts),
        Route::get("/v1/social/posts/{post_id}", kRead, get_post),
        Route::patch("/v1/social/posts/{post_id}", kWrite, update_post),
        Route::del("/v1/social/posts/{post_id}", kWrite, delete_post),
        Route::post("/v1/social/posts/{post_id}/edit", kWrite, edit_post),
        Route::post("/v1/social/posts/{post_id}/update-metadata", kWrite, update_post_metadata),
        Route::del("/v1/social/posts/{post_id}/recycle", kWrite, stop_post_recycling),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
