// The fake Instagram comments: listed under media with their replies (cursors), answered, hidden
// and deleted, each with instagram_manage_comments, as the Instagram Graph API documents them.
#include "tests/fakes/platforms/fake_clock.hpp"
#include "tests/fakes/platforms/instagram/instagram_state.hpp"

#include <algorithm>
#include <cstdlib>

namespace squawk::fakes::platforms::instagram {
namespace {

constexpr long long kPageSize = 50;
constexpr const char* kCommentFields[] = {"id", "text", "timestamp", "from", "hidden"};

json shown(const json& comment) {
    json out = json::object();
    for (const char* field : kCommentFields) out[field] = comment[field];
    return out;
}

struct Found {
    json* comment = nullptr;
    json* media = nullptr;
    std::string owner;
};

// A comment or reply by id, with its media and the media's account.
Found find_comment(const std::string& id) {
    for (auto& [account, items] : state().media.items())
        for (auto& media : items)
            for (auto& comment : media["comments"]) {
                if (comment["id"] == id) return {&comment, &media, account};
                for (auto& reply : comment["replies"])
                    if (reply["id"] == id) return {&reply, &media, account};
            }
    return {};
}

}  // namespace

json store_comment(json& media, const json& from, const std::string& text, json* parent) {
    json comment = {{"id", new_id()}, {"text", text},    {"timestamp", utc_now(0, "+0000")},
                    {"from", from},   {"hidden", false}, {"replies", json::array()}};
    (parent ? (*parent)["replies"] : media["comments"]).push_back(comment);
    media["comments_count"] = media["comments_count"].get<long long>() + 1;
    return comment;
}

HttpAnswer list_comments(const Caller& caller, const json& media, const Params& params) {
    if (!caller.has("instagram_manage_comments")) return no_permission();
    long long start = 0;
    if (const auto after = param(params, "after"); !after.empty()) {
        if (!after.starts_with("QVFI")) return invalid_parameter("(#100) Invalid cursor");
        start = std::atoll(after.c_str() + 4);
    }
    const bool with_replies = param(params, "fields").find("replies") != std::string::npos;
    const json& all = media["comments"];
    const auto total = static_cast<long long>(all.size());
    json data = json::array();
    for (long long i = start; i < total && i < start + kPageSize; ++i) {
        const json& comment = all[static_cast<size_t>(i)];
        json out = shown(comment);
        if (with_replies && !comment["replies"].empty()) {
            out["replies"] = {{"data", json::array()}};
            for (const auto& reply : comment["replies"])
                out["replies"]["data"].push_back(shown(reply));
        }
        data.push_back(out);
    }
    const long long end = start + static_cast<long long>(data.size());
    json paging = {
        {"cursors",
         {{"before", "QVFI" + std::to_string(start)}, {"after", "QVFI" + std::to_string(end)}}}};
    if (end < total)
        paging["next"] = "https://graph.facebook.com/v19.0/" + media["id"].get<std::string>() +
                         "/comments?after=QVFI" + std::to_string(end);
    return json_answer(200, {{"data", data}, {"paging", paging}});
}

std::optional<HttpAnswer> comment_call(const HttpRequest& request, const Caller& caller,
                                       const std::string& id, const std::string& edge,
                                       const Params& params) {
    auto found = find_comment(id);
    if (!found.comment) return std::nullopt;
    const std::string& method = request.method;
    if (!manages(caller, found.owner))
        return missing_object(method == "DELETE" ? "delete" : "post", id);
    if (!caller.has("instagram_manage_comments")) return no_permission();
    if (edge == "replies" && method == "POST") {
        const std::string text = param(params, "message");
        if (text.empty()) return invalid_parameter("(#100) Param message is required");
        const auto& account = state().accounts[found.owner];
        // Instagram keeps one level of replies: a reply to a reply answers its top-level comment.
        json* parent = found.comment;
        for (auto& comment : (*found.media)["comments"])
            for (const auto& reply : comment["replies"])
                if (reply["id"] == id) parent = &comment;
        const json reply = store_comment(
            *found.media, {{"id", account["id"]}, {"username", account["username"]}}, text, parent);
        return json_answer(200, {{"id", reply["id"]}});
    }
    if (!edge.empty()) return missing_object("post", id);
    if (method == "DELETE") {
        const auto drop = [&id](json& list) {
            list.erase(std::remove_if(list.begin(), list.end(),
                                      [&id](const json& comment) { return comment["id"] == id; }),
                       list.end());
        };
        auto& comments = (*found.media)["comments"];
        for (auto& comment : comments) drop(comment["replies"]);
        drop(comments);
        (*found.media)["comments_count"] = (*found.media)["comments_count"].get<long long>() - 1;
        return json_answer(200, {{"success", true}});
    }
    if (method == "GET")
        return json_answer(200, with_fields(*found.comment, param(params, "fields")));
    if (method != "POST" || !params.contains("hide"))
        return invalid_parameter("(#100) The parameter hide is required");
    (*found.comment)["hidden"] = param(params, "hide") == "true";
    return json_answer(200, {{"success", true}});
}

}  // namespace squawk::fakes::platforms::instagram
