// LinkedIn's Comments API as the fake serves it, under /rest/socialActions/{target}/comments: a
// post's top-level comments or a comment's replies, oldest first and paged by start and count
// (r_member_social, or r_organization_social on a page's post); a comment created by an actor
// the grant acts as (w_member_social), 1 to 1,250 characters, nested one level at most and 201
// with the comment; DELETE .../comments/{id}?actor= by the comment's author or the post's; and
// LIKE reactions (POST /rest/reactions?actor=), 409 for a second one. A comment is
// urn:li:comment:(<activity>,<id>); a post's activity is urn:li:activity:<the post's number>.
#include "tests/fakes/platforms/linkedin/linkedin_fake.hpp"

#include <algorithm>

namespace squawk::fakes::platforms::linkedin {
namespace {

constexpr std::string_view kCommentsUnder = "/rest/socialActions/";
constexpr size_t kMaxCommentLength = 1250;

std::string activity_of(const json& post) {
    const auto id = post["id"].get<std::string>();
    return "urn:li:activity:" + id.substr(id.rfind(':') + 1);
}

std::string comment_urn(const json& comment) {
    return "urn:li:comment:(" + comment["activity"].get<std::string>() + "," +
           comment["id"].get<std::string>() + ")";
}

json* find_comment(const std::string& urn) {
    for (auto& comment : state().comments)
        if (comment_urn(comment) == urn) return &comment;
    return nullptr;
}

json* post_of_activity(const std::string& activity) {
    for (auto& post : state().posts)
        if (activity_of(post) == activity) return &post;
    return nullptr;
}

size_t replies_to(const std::string& urn) {
    const auto& comments = state().comments;
    return static_cast<size_t>(std::count_if(comments.begin(), comments.end(),
                                             [&](const json& c) { return c["parent"] == urn; }));
}

// A comment as the API shows it.
json comment_element(const json& comment) {
    const auto urn = comment_urn(comment);
    const long long replies = static_cast<long long>(replies_to(urn));
    const long long likes = static_cast<long long>(comment["liked_by"].size());
    json element = {{"id", comment["id"]},
                    {"commentUrn", urn},
                    {"$URN", urn},
                    {"actor", comment["actor"]},
                    {"object", comment["activity"]},
                    {"message", {{"text", comment["text"]}, {"attributes", json::array()}}},
                    {"created", {{"actor", comment["actor"]}, {"time", comment["created"]}}},
                    {"lastModified", {{"actor", comment["actor"]}, {"time", comment["created"]}}},
                    {"commentsSummary",
                     {{"aggregatedTotalComments", replies}, {"totalFirstLevelComments", replies}}},
                    {"likesSummary", {{"totalLikes", likes}, {"aggregatedTotalLikes", likes}}}};
    if (comment["parent"] != "") element["parentComment"] = comment["parent"];
    return element;
}

// The post a target of the path stands for (a post, or a comment's post), or nothing.
json* post_under(const std::string& target) {
    if (const json* comment = find_comment(target)) return post_of_activity((*comment)["activity"]);
    if (target.starts_with("urn:li:activity:")) return post_of_activity(target);
    return find_post(target);
}

HttpAnswer list_comments(const HttpRequest& request, const std::string& target,
                         const Grant& grant) {
    const json* post = post_under(target);
    if (!post) return error(404, 0, "NOT_FOUND", "Not Found");
    const bool page = (*post)["author"].get<std::string>().starts_with("urn:li:organization:");
    if (!has(grant.scopes, "r_member_social") &&
        !(page && has(grant.scopes, "r_organization_social")))
        return error(403, 100, "ACCESS_DENIED",
                     "Not enough permissions to access: socialActions.comments.GET.20261001");
    const auto params = request.parameters();
    const auto number = [&](const char* name, long long fallback) {
        const auto found = params.find(name);
        return found == params.end() ? fallback : std::atoll(found->second.c_str());
    };
    const long long start = number("start", 0);
    const long long count = number("count", 10);
    if (start < 0 || count < 1 || count > 100)
        return error(400, 0, "BAD_REQUEST", "start must be 0 or more and count 1 to 100");
    const bool under_comment = find_comment(target) != nullptr;
    const std::string activity = activity_of(*post);
    std::vector<json> listed;
    for (const auto& comment : state().comments)
        if (comment["activity"] == activity &&
            comment["parent"] == (under_comment ? target : std::string()))
            listed.push_back(comment);
    json elements = json::array();
    for (long long i = start; i < static_cast<long long>(listed.size()) && i < start + count; ++i)
        elements.push_back(comment_element(listed[static_cast<size_t>(i)]));
    return json_answer(200, {{"elements", elements},
                             {"paging",
                              {{"start", start},
                               {"count", count},
                               {"total", listed.size()},
                               {"links", json::array()}}}});
}

json store_comment(json& post, const std::string& actor, const std::string& text,
                   const std::string& parent) {
    json comment = {{"id", std::to_string(6'900'000'000'000'000'000LL + next_message_id())},
                    {"activity", activity_of(post)},
                    {"actor", actor},
                    {"text", text},
                    {"parent", parent},
                    {"created", unix_now_ms()},
                    {"liked_by", json::array()}};
    state().comments.push_back(comment);
    post["comments"] = post["comments"].get<long long>() + 1;
    return comment;
}

HttpAnswer create_comment(const HttpRequest& request, const std::string& target,
                          const Grant& grant) {
    const json body = json::parse(request.body, nullptr, false);
    if (!body.is_object()) return error(400, 0, "BAD_REQUEST", "The body is not a JSON object");
    const std::string actor = body.value("actor", "");
    if (!acts_as(actor, grant))
        return error(403, 100, "ACCESS_DENIED", "Not enough permissions to comment as " + actor);
    json* post = post_under(target);
    if (!post) return error(404, 0, "NOT_FOUND", "Not Found");
    const json* parent = find_comment(target);
    if (body.value("object", "") != activity_of(*post))
        return unprocessable("ERROR :: /object :: must be the activity commented on");
    if (parent && (*parent)["parent"] != "")
        return unprocessable("ERROR :: /parentComment :: comments nest one level deep only");
    if (body.value("parentComment", "") != (parent ? target : std::string()))
        return unprocessable("ERROR :: /parentComment :: must be the comment of the path");
    const json message = body.value("message", json::object());
    const std::string text = message.is_object() ? message.value("text", "") : "";
    const auto length = static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
    if (length == 0 || length > kMaxCommentLength)
        return unprocessable("ERROR :: /message/text :: length must be 1 to 1250");
    const json comment = store_comment(*post, actor, text, parent ? target : std::string());
    auto answer = json_answer(201, comment_element(comment));
    answer.headers = {{"x-restli-id", comment["id"].get<std::string>()}};
    return answer;
}

HttpAnswer delete_comment(const HttpRequest& request, const std::string& target,
                          const std::string& id, const Grant& grant) {
    const std::string actor = url_decode(request.query("actor"));
    if (!acts_as(actor, grant))
        return error(403, 100, "ACCESS_DENIED", "Not enough permissions to act as " + actor);
    const json* post = post_under(target);
    auto& comments = state().comments;
    const auto found = std::find_if(comments.begin(), comments.end(), [&](const json& c) {
        return post && c["activity"] == activity_of(*post) && c["id"] == id;
    });
    if (found == comments.end()) return error(404, 0, "NOT_FOUND", "Not Found");
    if ((*found)["actor"] != actor && (*post)["author"] != actor)
        return error(403, 100, "ACCESS_DENIED",
                     "Only the comment's author or the post's may delete it");
    const auto urn = comment_urn(*found);
    comments.erase(
        std::remove_if(comments.begin(), comments.end(),
                       [&](const json& c) { return comment_urn(c) == urn || c["parent"] == urn; }),
        comments.end());
    HttpAnswer answer;
    answer.status = 204;
    return answer;
}

HttpAnswer react(const HttpRequest& request, const Grant& grant) {
    const std::string actor = url_decode(request.query("actor"));
    if (!acts_as(actor, grant))
        return error(403, 100, "ACCESS_DENIED", "Not enough permissions to react as " + actor);
    const json body = json::parse(request.body, nullptr, false);
    if (!body.is_object()) return error(400, 0, "BAD_REQUEST", "The body is not a JSON object");
    static const std::vector<std::string> kTypes = {"LIKE",     "PRAISE",       "EMPATHY",
                                                    "INTEREST", "APPRECIATION", "ENTERTAINMENT"};
    if (std::find(kTypes.begin(), kTypes.end(), body.value("reactionType", "")) == kTypes.end())
        return unprocessable("ERROR :: /reactionType :: unknown reaction type");
    json* comment = find_comment(body.value("root", ""));
    if (!comment) return error(404, 0, "NOT_FOUND", "Not Found");
    auto& liked_by = (*comment)["liked_by"];
    if (std::find(liked_by.begin(), liked_by.end(), actor) != liked_by.end())
        return error(409, 0, "DUPLICATE", "The actor has reacted to this already");
    liked_by.push_back(actor);
    return json_answer(201, {{"root", body["root"]},
                             {"reactionType", body["reactionType"]},
                             {"created", {{"actor", actor}, {"time", unix_now_ms()}}}});
}

}  // namespace

json store_comment_by(const std::string& target, const std::string& member,
                      const std::string& text) {
    json* post = post_under(target);
    if (!post) return json::object();
    const bool reply = find_comment(target) != nullptr;
    return comment_element(store_comment(*post, person_urn(member), text, reply ? target : ""));
}

std::optional<HttpAnswer> serve_comments(const HttpRequest& request, const std::string& path) {
    if (path == "/rest/reactions" && request.method == "POST")
        return with_grant(request, {"w_member_social"}, "reactions.CREATE.20261001",
                          [&](const Grant& grant) { return react(request, grant); });
    if (!path.starts_with(kCommentsUnder)) return std::nullopt;
    const auto rest = path.substr(kCommentsUnder.size());
    const auto slash = rest.find('/');
    if (slash == std::string::npos) return std::nullopt;
    const auto target = url_decode(rest.substr(0, slash));
    const auto tail = rest.substr(slash);
    if (tail == "/comments" && request.method == "GET")
        return with_grant(
            request, {}, "socialActions.comments.GET.20261001",
            [&](const Grant& grant) { return list_comments(request, target, grant); });
    if (tail == "/comments" && request.method == "POST")
        return with_grant(
            request, {"w_member_social"}, "socialActions.comments.CREATE.20261001",
            [&](const Grant& grant) { return create_comment(request, target, grant); });
    if (tail.starts_with("/comments/") && request.method == "DELETE")
        return with_grant(request, {"w_member_social"}, "socialActions.comments.DELETE.20261001",
                          [&](const Grant& grant) {
                              return delete_comment(request, target, tail.substr(10), grant);
                          });
    return std::nullopt;
}

}  // namespace squawk::fakes::platforms::linkedin
