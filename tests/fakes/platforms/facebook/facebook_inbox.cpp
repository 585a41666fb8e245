// The fake Page inbox: comments under the Page's posts (GET /{post}/comments with cursors,
// POST /{comment}/comments, POST /{comment}/likes, POST /{comment} is_hidden, DELETE
// /{comment}) and the Messenger Send API (POST /{page}/messages to a person's id, to a comment's
// author once as a private reply, or a typing indicator), with the Graph errors and the
// permissions Facebook asks for each.
#include "tests/fakes/platforms/facebook/facebook_fake.hpp"
#include "tests/fakes/platforms/fake_clock.hpp"

#include <algorithm>
#include <cstdlib>

namespace squawk::fakes::platforms::facebook {

using nlohmann::json;

namespace {

constexpr long long kMaxPage = 100;
constexpr size_t kMaxChoiceTitle = 20;

// The caller's Page owns the post `post_id`.
bool own_post(const Caller& caller, const std::string& post_id) {
    return post_id.starts_with(caller.page_id() + "_");
}

json* own_comment(const Caller& caller, const std::string& id) {
    auto& comments = state().comments;
    if (!comments.contains(id) || comments[id].value("deleted", false) ||
        !own_post(caller, comments[id]["post_id"]))
        return nullptr;
    return &comments[id];
}

json with_fields(const json& comment) {
    json out = {{"id", comment["id"]},
                {"message", comment["message"]},
                {"from", comment["from"]},
                {"created_time", comment["created_time"]},
                {"is_hidden", comment["is_hidden"]}};
    if (!comment["parent_id"].get<std::string>().empty())
        out["parent"] = {{"id", comment["parent_id"]}};
    return out;
}

HttpAnswer list_comments(const Caller& caller, const std::string& object_id, const Params& params) {
    if (!caller.has("pages_read_user_content"))
        return missing_permission("pages_read_user_content");
    long long limit = 25;
    if (const auto text = param(params, "limit"); !text.empty()) limit = std::atoll(text.c_str());
    if (limit < 1 || limit > kMaxPage) return invalid_parameter("(#100) limit must be 1 to 100");
    // filter=stream lists replies beside top-level comments; toplevel (the default) only these.
    const bool stream = param(params, "filter") == "stream";
    std::vector<json> found;
    for (const auto& [id, comment] : state().comments.items()) {
        if (comment.value("deleted", false)) continue;
        const bool under_post = comment["post_id"] == object_id &&
                                (stream || comment["parent_id"].get<std::string>().empty());
        if (under_post || comment["parent_id"] == object_id) found.push_back(comment);
    }
    std::sort(found.begin(), found.end(),
              [](const json& a, const json& b) { return a["seq"] < b["seq"]; });
    long long start = 0;
    if (const auto after = param(params, "after"); !after.empty()) {
        if (!after.starts_with("cur")) return invalid_parameter("(#100) Invalid cursor");
        start = std::atoll(after.c_str() + 3);
    }
    json data = json::array();
    for (long long i = start; i < static_cast<long long>(found.size()) && i < start + limit; ++i)
        data.push_back(with_fields(found[static_cast<size_t>(i)]));
    json paging = {
        {"cursors",
         {{"before", "cur" + std::to_string(start)},
          {"after", "cur" + std::to_string(start + static_cast<long long>(data.size()))}}}};
    if (start + limit < static_cast<long long>(found.size()))
        paging["next"] = "https://graph.facebook.com/v19.0/" + object_id +
                         "/comments?after=" + paging["cursors"]["after"].get<std::string>();
    return json_answer(200, {{"data", data}, {"paging", paging}});
}

HttpAnswer reply(const Caller& caller, const std::string& comment_id, const Params& params) {
    if (!caller.has("pages_manage_engagement"))
        return missing_permission("pages_manage_engagement");
    json* parent = own_comment(caller, comment_id);
    if (!parent) return missing_object("post", comment_id);
    const std::string message = param(params, "message");
    if (message.empty()) return invalid_parameter("(#100) Missing message or attachment");
    const json comment = add_comment(
        (*parent)["post_id"], comment_id,
        {{"id", caller.page_id()}, {"name", state().pages[caller.page_id()]["name"]}}, message);
    return json_answer(200, {{"id", comment["id"]}});
}

HttpAnswer send_api(const Caller& caller, const Params& params) {
    if (!caller.has("pages_messaging")) return missing_permission("pages_messaging");
    const json recipient = json::parse(param(params, "recipient"), nullptr, false);
    if (!recipient.is_object())
        return invalid_parameter("(#100) param recipient must be an object");
    const std::string action = param(params, "sender_action");
    const json message = json::parse(param(params, "message"), nullptr, false);
    if (action.empty() && !message.is_object())
        return invalid_parameter("(#100) param message must be an object");
    if (message.is_object()) {
        for (const char* choices : {"quick_replies"})
            for (const auto& choice : message.value(choices, json::array()))
                if (choice.value("title", "").size() > kMaxChoiceTitle)
                    return invalid_parameter("(#100) Title has more than 20 characters");
    }
    auto& s = state();
    if (recipient.contains("comment_id")) {
        const std::string id = recipient.value("comment_id", "");
        json* comment = own_comment(caller, id);
        if (!comment) return missing_object("post", id);
        if ((*comment).value("privately_replied", false))
            return graph_error(400, "(#10900) Activity already replied to", 10900);
        (*comment)["privately_replied"] = true;
        const std::string message_id = "m_" + new_id();
        s.messenger[caller.page_id()].push_back(
            {{"message_id", message_id}, {"comment_id", id}, {"message", message}});
        return json_answer(
            200, {{"recipient_id", (*comment)["from"]["id"]}, {"message_id", message_id}});
    }
    const std::string person = recipient.value("id", "");
    const json people = s.messenger_users.value(caller.page_id(), json::array());
    if (std::find(people.begin(), people.end(), person) == people.end())
        return graph_error(400, "(#100) No matching user found", 100, 2018001);
    if (!action.empty()) {
        if (action != "typing_on" && action != "typing_off" && action != "mark_seen")
            return invalid_parameter(
                "(#100) param sender_action must be one of {MARK_SEEN, "
                "TYPING_ON, TYPING_OFF}");
        s.messenger[caller.page_id()].push_back({{"recipient", person}, {"sender_action", action}});
        return json_answer(200, {{"recipient_id", person}});
    }
    const std::string message_id = "m_" + new_id();
    s.messenger[caller.page_id()].push_back(
        {{"message_id", message_id}, {"recipient", person}, {"message", message}});
    return json_answer(200, {{"recipient_id", person}, {"message_id", message_id}});
}

}  // namespace

json add_comment(const std::string& post_id, const std::string& parent_id, const json& from,
                 const std::string& message) {
    const std::string id = post_id.substr(post_id.find('_') + 1) + "_" + new_id();
    json comment = {
        {"id", id},           {"post_id", post_id}, {"parent_id", parent_id},
        {"from", from},       {"message", message}, {"created_time", utc_now(0, "+0000")},
        {"is_hidden", false}, {"liked", false},     {"seq", next_message_id()}};
    state().comments[id] = comment;
    return comment;
}

std::optional<HttpAnswer> serve_inbox(const HttpRequest& request, const Caller& caller,
                                      const std::string& id, const std::string& edge,
                                      const Params& params) {
    if (edge == "messages" && id == caller.page_id() && request.method == "POST")
        return send_api(caller, params);
    const bool comment = state().comments.contains(id);
    if (edge == "comments") {
        if (request.method == "GET" && (own_post(caller, id) || own_comment(caller, id)))
            return list_comments(caller, id, params);
        if (request.method == "POST" && comment) return reply(caller, id, params);
        return std::nullopt;
    }
    if (!comment) return std::nullopt;
    if (!own_comment(caller, id))
        return missing_object(request.method == "DELETE" ? "delete" : "post", id);
    if (!caller.has("pages_manage_engagement"))
        return missing_permission("pages_manage_engagement");
    json& c = state().comments[id];
    if (edge == "likes" && request.method == "POST") {
        c["liked"] = true;
        return json_answer(200, {{"success", true}});
    }
    if (!edge.empty()) return std::nullopt;
    if (request.method == "DELETE") {
        c["deleted"] = true;
        return json_answer(200, {{"success", true}});
    }
    if (request.method != "POST" || !params.contains("is_hidden"))
        return invalid_parameter("(#100) No field to update");
    c["is_hidden"] = param(params, "is_hidden") == "true";
    return json_answer(200, {{"success", true}});
}

}  // namespace squawk::fakes::platforms::facebook
