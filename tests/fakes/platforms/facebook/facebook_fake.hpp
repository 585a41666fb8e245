// What the parts of the fake Facebook Graph API share: its state (the application, users, Pages,
// tokens, posts, photos and video uploads), the Graph error object and the caller of a call.
#pragma once

#include "tests/fakes/platforms/fake_platform.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <variant>
#include <vector>

namespace squawk::fakes::platforms::facebook {

using Params = std::map<std::string, std::string>;

struct State {
    nlohmann::json client = nlohmann::json::object();  // {client_id, client_secret}
    nlohmann::json users = nlohmann::json::object();   // id -> {id, name, pages: [page ids]}
    // id -> {id, name, username, about, description, website, phone, emails, followers_count,
    // fan_count, picture, cover}
    nlohmann::json pages = nlohmann::json::object();
    nlohmann::json next_consent;  // null, or {user_id, scopes?, pages?, deny?}
    // code -> {user_id, redirect_uri, scopes, pages, issued_at, used}
    nlohmann::json codes = nlohmann::json::object();
    // token -> {kind: short|user|page, user_id, page_id, scopes, pages, expires_at, expired}
    nlohmann::json tokens = nlohmann::json::object();
    // page id -> [{id, kind, message, created_time, updated_time, permalink_url, media}], oldest
    // first
    nlohmann::json posts = nlohmann::json::object();
    // photo id -> {page_id, url, published}
    nlohmann::json photos = nlohmann::json::object();
    // upload session id -> {video_id, page_id, file_size, received}; video id -> {page_id, edge,
    // file_size, received, published}
    nlohmann::json sessions = nlohmann::json::object();
    nlohmann::json videos = nlohmann::json::object();
    // object id -> {metric: value}
    nlohmann::json insights = nlohmann::json::object();
    // comment id -> {id, post_id, parent_id, from {id, name}, message, created_time, is_hidden,
    // liked, privately_replied?, deleted?, seq}
    nlohmann::json comments = nlohmann::json::object();
    // page id -> the Send API's calls, oldest first: {message_id, recipient | comment_id,
    // message} or {recipient, sender_action}
    nlohmann::json messenger = nlohmann::json::object();
    // page id -> the ids of the people who wrote to the Page (the only ones it may message)
    nlohmann::json messenger_users = nlohmann::json::object();
    // Graph calls still to be throttled (code 32) and the wait they announce, in minutes.
    long long throttled_calls = 0;
    long long throttle_minutes = 0;
};

State& state();
std::string new_id();

HttpAnswer graph_error(int status, const std::string& message, int code, int subcode = 0,
                       const std::string& type = "OAuthException");
HttpAnswer invalid_parameter(const std::string& message);
HttpAnswer missing_object(const std::string& verb, const std::string& id);
// (#200) naming the permission the token lacks, as the Graph API words it.
HttpAnswer missing_permission(const std::string& permission);
std::string param(const Params& params, const std::string& name);
std::vector<std::string> split_list(const std::string& text);
bool has_scope(const nlohmann::json& scopes, const std::string& scope);

// The caller of a Graph call: the token's record (kind, user_id, page_id, scopes, pages).
struct Caller {
    nlohmann::json record;
    bool page_token() const { return record["kind"] == "page"; }
    std::string page_id() const { return record.value("page_id", ""); }
    bool has(const std::string& scope) const { return has_scope(record["scopes"], scope); }
};
std::variant<Caller, HttpAnswer> authenticated(const HttpRequest& request, const Params& params);

// Facebook Login: the consent page, the token endpoint, /me/permissions and /me/accounts
// (facebook_login.cpp). nullopt: not one of these paths.
std::optional<HttpAnswer> serve_login(const HttpRequest& request, const std::string& path,
                                      const Params& params);
// The Page token's calls on /{page}/videos, video_reels, video_stories and the upload host
// (facebook_videos.cpp).
HttpAnswer videos_edge(const HttpRequest& request, const Caller& caller, const std::string& edge,
                       const Params& params);
HttpAnswer upload_host(const HttpRequest& request, const std::string& video_id);
// The inbox's calls (facebook_inbox.cpp): comments on the Page's posts and the Send API.
// nullopt: not an inbox call.
std::optional<HttpAnswer> serve_inbox(const HttpRequest& request, const Caller& caller,
                                      const std::string& id, const std::string& edge,
                                      const Params& params);
// A comment under the post `post_id` (a reply when `parent_id` is a comment); returns it.
nlohmann::json add_comment(const std::string& post_id, const std::string& parent_id,
                           const nlohmann::json& from, const std::string& message);
// A post on the Page, newest last; returns it.
nlohmann::json store_post(const std::string& page_id, const std::string& kind,
                          const std::string& message, nlohmann::json media);

}  // namespace squawk::fakes::platforms::facebook
