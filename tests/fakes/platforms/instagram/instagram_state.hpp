// What the fake Instagram Graph API's parts share: its state (the application, Facebook users,
// their Pages and the Instagram professional accounts linked to them, grants and tokens,
// containers and published media), the Graph error answers and who a call's token speaks for.
#pragma once

#include "tests/fakes/platforms/fake_platform.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <variant>

namespace squawk::fakes::platforms::instagram {

using nlohmann::json;
using Params = std::map<std::string, std::string>;

struct State {
    json client = json::object();    // the registered application {client_id, client_secret}
    json users = json::object();     // Facebook user id -> {id, name}
    json pages = json::object();     // Page id -> {id, name, user_id, instagram_business_account}
    json accounts = json::object();  // Instagram account id -> {id, username, name, page_id, ...}
    json next_consent;               // null, or {user_id, scopes?, deny?}
    // code -> {user_id, redirect_uri, scopes, code_challenge, issued_at, used}
    json codes = json::object();
    // token -> {user_id, scopes, long_lived, expires_at, expired}
    json tokens = json::object();
    long long container_delay = 0;  // status reads each new container answers IN_PROGRESS
    json next_container_error;      // null, or the status the next container ends in ERROR with
    json throttle;                  // null, or {code, minutes}: how the next Graph call is refused
    // id -> {id, user_id, media_type, caption, image_url, is_carousel_item, children, polls_left,
    // error, resumable, file_size, received, chunks, media_id, options}
    json containers = json::object();
    // Instagram account id -> [{id, caption, media_type, media_product_type, permalink, timestamp,
    // like_count, comments_count, comments, insights, children}], oldest first
    json media = json::object();
    std::map<std::string, std::string> media_owner;  // media id -> Instagram account id
};

State& state();

// A Graph id of the fake's own sequence.
std::string new_id();
std::string param(const Params& params, const std::string& name);

HttpAnswer graph_error(int status, const std::string& message, int code, int subcode = 0,
                       const std::string& type = "OAuthException");
HttpAnswer invalid_parameter(const std::string& message);

// A token's Facebook user and granted permissions.
struct Caller {
    std::string user_id;
    json scopes;
    bool has(const std::string& scope) const;
};

// The token's caller, or the 190 the Graph API answers for a token it does not take.
std::variant<Caller, HttpAnswer> caller_of(const std::string& token);

// (#10), the Graph API's refusal for want of a permission.
HttpAnswer no_permission();
HttpAnswer missing_object(const std::string& verb, const std::string& id);
// The members of `object` that `fields` asks for, id always.
json with_fields(const json& object, const std::string& fields);
// Whether the Instagram account is linked to a Page the caller manages.
bool manages(const Caller& caller, const std::string& account_id);
// Published media by id, and the account it belongs to.
json* find_media(const std::string& id, std::string* owner = nullptr);

// The comments under media (instagram_comments.cpp): each top-level comment keeps its replies.
// A comment by `from` {id, username} under `media` (a reply under `parent`, a top-level
// comment of the media, when given); returns it.
json store_comment(json& media, const json& from, const std::string& text, json* parent = nullptr);
// GET /{media-id}/comments with cursors.
HttpAnswer list_comments(const Caller& caller, const json& media, const Params& params);
// Calls on a comment: POST /{comment-id}/replies, POST /{comment-id} hide, DELETE
// /{comment-id}. nullopt: `id` is no comment.
std::optional<HttpAnswer> comment_call(const HttpRequest& request, const Caller& caller,
                                       const std::string& id, const std::string& edge,
                                       const Params& params);

// The consent page and the token endpoint (facebook_login.cpp).
HttpAnswer consent_dialog(const Params& params);
HttpAnswer access_token(const Params& params);

}  // namespace squawk::fakes::platforms::instagram
