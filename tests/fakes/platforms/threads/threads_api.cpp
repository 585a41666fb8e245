// The fake Threads Graph API: Meta's consent page (/oauth/authorize), the token endpoints
// (/oauth/access_token for a code, /access_token th_exchange_token for a long-lived token,
// /refresh_access_token th_refresh_token) and under /v1.0 the profile (me), media containers
// (threads: TEXT, IMAGE, VIDEO by URL, CAROUSEL) that are read until FINISHED and then published
// (threads_publish), and posts read,
// listed and deleted, the account's followers (threads_insights) and a post's counts (insights),
// the replies under a post (conversation, paged) and hiding a top-level reply (manage_reply),
// with the Graph error object {error: {message, type, code, error_subcode, fbtrace_id}}.
// Parameters are read from the query and from a form body alike, as the Graph API reads them;
// the token from a Bearer header or access_token. Threads' token answers name no scopes; this
// fake adds `scope` (comma-separated) when the consent granted a chosen subset (next_consent with
// scopes), so that partial grants can be tested.
#include "tests/fakes/platforms/fake_clock.hpp"
#include "tests/fakes/platforms/fake_platform.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <variant>
#include <vector>

namespace squawk::fakes::platforms::threads {
namespace {

using nlohmann::json;

constexpr long long kShortLivedSeconds = 3600;
constexpr long long kLongLivedSeconds = 5183944;  // what Threads answers: about 60 days
constexpr long long kCodeSeconds = 600;
constexpr size_t kMaxTextChars = 500;
constexpr long long kMaxImageBytes = 8LL * 1024 * 1024;
constexpr size_t kMinCarouselItems = 2;
constexpr size_t kMaxCarouselItems = 20;
// Graph ids are long numbers; the fake's own sequence is added to this.
constexpr long long kIdBase = 17'890'000'000'000'000;

struct State {
    json client = json::object();  // the registered application {client_id, client_secret}
    json users = json::object();   // id -> {id, username, name}
    json next_consent;             // null, or {user_id, scopes?, deny?}
    // code -> {user_id, redirect_uri, scopes, named, issued_at, used}
    json codes = json::object();
    // token -> {user_id, scopes, long_lived, expires_at, expired}
    json tokens = json::object();
    long long container_delay = 0;  // status reads each new container answers IN_PROGRESS
    // id -> {id, user_id, media_type, text, image_url, is_carousel_item, children, polls_left,
    // error_message, media_id}
    json containers = json::object();
    // user id -> [{id, media_type, text, permalink, timestamp, media_url, children}], oldest first
    json posts = json::object();
    std::map<std::string, std::string> post_owner;  // post id -> user id
};

State& state() {
    return fake_state<State>();
}

std::string new_id() {
    return std::to_string(kIdBase + next_message_id());
}

HttpAnswer graph_error(int status, const std::string& message, int code, int subcode = 0,
                       const std::string& type = "OAuthException") {
    json error = {{"message", message}, {"type", type}, {"code", code}, {"fbtrace_id", "AtHrEaDs"}};
    if (subcode != 0) error["error_subcode"] = subcode;
    return json_answer(status, {{"error", error}});
}

HttpAnswer invalid_parameter(const std::string& message) {
    return graph_error(400, message, 100);
}

HttpAnswer missing_object(const std::string& verb, const std::string& id) {
    return graph_error(400,
                       "Unsupported " + verb + " request. Object with ID '" + id +
                           "' does not exist, cannot be loaded due to missing permissions, or "
                           "does not support this operation",
                       100, 33, "GraphMethodException");
}

HttpAnswer no_permission() {
    return graph_error(403, "Application does not have permission for this action", 10);
}

std::string param(const std::map<std::string, std::string>& params, const std::string& name) {
    const auto found = params.find(name);
    return found == params.end() ? std::string() : found->second;
}

// A list written comma- or space-separated (scopes, fields, children).
std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> items;
    std::string item;
    for (const char c : text + ",") {
        if (c == ',' || c == ' ') {
            if (!item.empty()) items.push_back(item);
            item.clear();
        } else {
            item += c;
        }
    }
    return items;
}

// Characters as Threads counts them: code points, but an emoji (a four-byte UTF-8 sequence) as
// its bytes.
size_t text_length(const std::string& text) {
    size_t length = 0;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if ((byte & 0xC0) != 0x80) ++length;
        if ((byte & 0xF8) == 0xF0) length += 3;
    }
    return length;
}

bool has_scope(const json& scopes, const std::string& scope) {
    return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
}

std::string issue_token(const std::string& user_id, const json& scopes, bool long_lived) {
    const std::string token = (long_lived ? "THQVJLong" : "THQVJShort") + new_id();
    state().tokens[token] = {
        {"user_id", user_id},
        {"scopes", scopes},
        {"long_lived", long_lived},
        {"expires_at", unix_now() + (long_lived ? kLongLivedSeconds : kShortLivedSeconds)},
        {"expired", false}};
    return token;
}

// The token's record, or the 190 the Graph API answers for a token it does not take.
std::variant<json, HttpAnswer> valid_token(const std::string& token) {
    auto& tokens = state().tokens;
    if (token.empty() || !tokens.contains(token))
        return graph_error(400, "Invalid OAuth access token - Cannot parse access token", 190);
    const json& record = tokens[token];
    if (record["expired"].get<bool>() || record["expires_at"].get<long long>() < unix_now())
        return graph_error(400,
                           "Error validating access token: Session has expired. The current "
                           "time is " +
                               utc_now(0, "+0000") + ".",
                           190, 463);
    return record;
}

struct Caller {
    std::string user_id;
    json scopes;
};

std::variant<Caller, HttpAnswer> authenticated(const HttpRequest& request,
                                               const std::map<std::string, std::string>& params) {
    const auto auth = request.headers.find("authorization");
    const std::string token = auth != request.headers.end() && auth->second.starts_with("Bearer ")
                                  ? auth->second.substr(7)
                                  : param(params, "access_token");
    auto record = valid_token(token);
    if (auto* refusal = std::get_if<HttpAnswer>(&record)) return *refusal;
    const json& valid = std::get<json>(record);
    if (!has_scope(valid["scopes"], "threads_basic")) return no_permission();
    return Caller{valid["user_id"].get<std::string>(), valid["scopes"]};
}

HttpAnswer redirect(const std::string& to, const std::string& query) {
    HttpAnswer answer;
    answer.status = 302;
    answer.headers.emplace_back("Location",
                                to + (to.find('?') == std::string::npos ? "?" : "&") + query);
    answer.content_type = "text/html";
    return answer;
}

// GET /oauth/authorize: the user consents (or not) as next_consent says.
HttpAnswer authorize(const std::map<std::string, std::string>& params) {
    auto& s = state();
    if (param(params, "client_id") != s.client.value("client_id", "") ||
        s.client.value("client_id", "").empty())
        return graph_error(400, "Invalid platform app", 1);
    if (param(params, "response_type") != "code")
        return invalid_parameter("response_type must be code");
    const auto asked = split_list(param(params, "scope"));
    if (std::find(asked.begin(), asked.end(), "threads_basic") == asked.end())
        return invalid_parameter("The scope threads_basic is required");
    const std::string redirect_uri = param(params, "redirect_uri");
    if (!redirect_uri.starts_with("https://"))
        return invalid_parameter("redirect_uri must be a valid OAuth redirect URI");
    if (s.next_consent.is_null())
        return invalid_parameter("No user is at the consent page (next_consent is not set)");
    const json consent = s.next_consent;
    s.next_consent = nullptr;
    const std::string state_part =
        params.contains("state") ? "&state=" + url_encode(param(params, "state")) : "";
    if (consent.value("deny", false))
        return redirect(redirect_uri,
                        "error=access_denied&error_reason=user_denied&error_description=" +
                            url_encode("Permissions error") + state_part);
    const bool named = consent.contains("scopes");
    const json scopes = named ? consent["scopes"] : json(asked);
    const std::string code = "AQB" + new_id() + "x" + std::to_string(std::rand() % 100000);
    s.codes[code] = {{"user_id", consent.at("user_id").get<std::string>()},
                     {"redirect_uri", redirect_uri},
                     {"scopes", scopes},
                     {"named", named},
                     {"issued_at", unix_now()},
                     {"used", false}};
    return redirect(redirect_uri, "code=" + code + state_part);
}

// POST /oauth/access_token: a code for a short-lived token and the user's id.
HttpAnswer access_token_for_code(const std::map<std::string, std::string>& params) {
    auto& s = state();
    if (param(params, "client_id") != s.client.value("client_id", "") ||
        param(params, "client_secret") != s.client.value("client_secret", "") ||
        param(params, "client_secret").empty())
        return graph_error(400, "Error validating client secret.", 1);
    if (param(params, "grant_type") != "authorization_code")
        return invalid_parameter("Unsupported grant_type: " + param(params, "grant_type"));
    const std::string code = param(params, "code");
    if (!s.codes.contains(code))
        return graph_error(400, "Invalid verification code format.", 100, 36008);
    json& grant = s.codes[code];
    if (grant["used"].get<bool>())
        return graph_error(400, "This authorization code has been used.", 100, 36009);
    if (grant["issued_at"].get<long long>() + kCodeSeconds < unix_now())
        return graph_error(400, "This authorization code has expired.", 100, 36007);
    if (grant["redirect_uri"] != param(params, "redirect_uri"))
        return graph_error(400,
                           "Error validating verification code. Please make sure your "
                           "redirect_uri is identical to the one you used in the OAuth dialog "
                           "request",
                           100, 36008);
    grant["used"] = true;
    const std::string user_id = grant["user_id"];
    json out = {{"access_token", issue_token(user_id, grant["scopes"], false)},
                {"user_id", std::stoll(user_id)}};
    if (grant["named"].get<bool>()) {
        std::string scope;
        for (const auto& name : grant["scopes"])
            scope += (scope.empty() ? "" : ",") + name.get<std::string>();
        out["scope"] = scope;
    }
    return json_answer(200, out);
}

HttpAnswer long_lived_answer(const std::string& token) {
    return json_answer(
        200,
        {{"access_token", token}, {"token_type", "bearer"}, {"expires_in", kLongLivedSeconds}});
}

// GET /access_token (th_exchange_token): a short-lived token for a long-lived one.
HttpAnswer exchange_token(const std::map<std::string, std::string>& params) {
    if (param(params, "grant_type") != "th_exchange_token")
        return invalid_parameter("Unsupported grant_type: " + param(params, "grant_type"));
    if (param(params, "client_secret") != state().client.value("client_secret", "") ||
        param(params, "client_secret").empty())
        return graph_error(400, "Error validating client secret.", 1);
    auto record = valid_token(param(params, "access_token"));
    if (auto* refusal = std::get_if<HttpAnswer>(&record)) return *refusal;
    const json& valid = std::get<json>(record);
    if (valid["long_lived"].get<bool>())
        return invalid_parameter("access_token must be a short-lived token");
    return long_lived_answer(issue_token(valid["user_id"], valid["scopes"], true));
}

// GET /refresh_access_token (th_refresh_token): a long-lived token for a new one. Threads refuses
// tokens under 24 hours old; the fake does not, so that tests need not wait a day.
HttpAnswer refresh_token(const std::map<std::string, std::string>& params) {
    if (param(params, "grant_type") != "th_refresh_token")
        return invalid_parameter("Unsupported grant_type: " + param(params, "grant_type"));
    auto record = valid_token(param(params, "access_token"));
    if (auto* refusal = std::get_if<HttpAnswer>(&record)) return *refusal;
    const json& valid = std::get<json>(record);
    if (!valid["long_lived"].get<bool>())
        return invalid_parameter("Only long-lived access tokens can be refreshed");
    return long_lived_answer(issue_token(valid["user_id"], valid["scopes"], true));
}

// The members of `object` that `fields` asks for, id always.
json with_fields(const json& object, const std::string& fields) {
    json out = {{"id", object["id"]}};
    for (const auto& field : split_list(fields))
        if (object.contains(field) && !object[field].is_null()) out[field] = object[field];
    return out;
}

json* find_post(const std::string& id, std::string* owner = nullptr) {
    auto& s = state();
    const auto user_id = s.post_owner.find(id);
    if (user_id == s.post_owner.end() || !s.posts.contains(user_id->second)) return nullptr;
    for (auto& post : s.posts[user_id->second])
        if (post["id"] == id) {
            if (owner) *owner = user_id->second;
            return &post;
        }
    return nullptr;
}

// Whether the fake media host's address (or the path's extension) says the image is one Threads
// takes: JPEG or PNG of at most 8 MB. Threads fetches it itself; an address saying nothing passes.
bool image_acceptable(const std::string& url) {
    const auto question = url.find('?');
    const auto query = question == std::string::npos
                           ? std::map<std::string, std::string>()
                           : form_decode(std::string_view(url).substr(question + 1));
    std::string type = param(query, "type");
    const std::string path = url.substr(0, question);
    if (type.empty() && path.ends_with(".gif")) type = "image/gif";
    if (!type.empty() && type != "image/jpeg" && type != "image/png") return false;
    return std::atoll(param(query, "bytes").c_str()) <= kMaxImageBytes;
}

// POST /{user-id}/threads: a media container.
HttpAnswer create_container(const Caller& caller,
                            const std::map<std::string, std::string>& params) {
    auto& s = state();
    if (!has_scope(caller.scopes, "threads_content_publish")) return no_permission();
    const std::string type = param(params, "media_type");
    const std::string text = param(params, "text");
    const bool item = param(params, "is_carousel_item") == "true";
    if (type != "TEXT" && type != "IMAGE" && type != "VIDEO" && type != "CAROUSEL")
        return invalid_parameter("Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}");
    if (text_length(text) > kMaxTextChars)
        return invalid_parameter("Param text must be at most 500 characters long.");
    if (item && type != "IMAGE" && type != "VIDEO")
        return invalid_parameter("Only IMAGE and VIDEO containers can be carousel items");
    if (type == "TEXT" && text.empty())
        return invalid_parameter("Param text is required for TEXT posts");
    // A reply names a post it may see: any account's, as Threads lets replies cross accounts.
    const std::string reply_to = param(params, "reply_to_id");
    if (!reply_to.empty() && !s.post_owner.contains(reply_to))
        return invalid_parameter("Param reply_to_id must be the id of an existing Threads post");
    if (!reply_to.empty() && item)
        return invalid_parameter("A carousel item cannot reply to a post");
    json container = {{"id", new_id()},
                      {"user_id", caller.user_id},
                      {"media_type", type},
                      {"text", text},
                      {"is_carousel_item", item},
                      {"children", json::array()},
                      {"polls_left", s.container_delay},
                      {"reply_to_id", reply_to.empty() ? json() : json(reply_to)},
                      {"error_message", nullptr},
                      {"media_id", nullptr}};
    if (type == "IMAGE") {
        const std::string url = param(params, "image_url");
        if (!url.starts_with("http://") && !url.starts_with("https://"))
            return invalid_parameter("Param image_url is required for IMAGE posts");
        container["image_url"] = url;
        if (!image_acceptable(url)) container["error_message"] = "UNKNOWN";
    }
    if (type == "VIDEO") {
        const std::string url = param(params, "video_url");
        if (!url.starts_with("http://") && !url.starts_with("https://"))
            return invalid_parameter("Param video_url is required for VIDEO posts");
        container["video_url"] = url;
    }
    if (type == "CAROUSEL") {
        const auto children = split_list(param(params, "children"));
        if (children.size() < kMinCarouselItems || children.size() > kMaxCarouselItems)
            return invalid_parameter("Param children must name 2 to 20 carousel items");
        for (const auto& child : children) {
            if (!s.containers.contains(child) || s.containers[child]["user_id"] != caller.user_id ||
                !s.containers[child]["is_carousel_item"].get<bool>())
                return invalid_parameter("Param children has an invalid carousel item: " + child);
            if (!s.containers[child]["error_message"].is_null())
                container["error_message"] = s.containers[child]["error_message"];
            container["children"].push_back(child);
        }
    }
    s.containers[container["id"].get<std::string>()] = container;
    return json_answer(200, {{"id", container["id"]}});
}

std::string status_of(json& container) {
    if (!container["media_id"].is_null()) return "PUBLISHED";
    if (container["polls_left"].get<long long>() > 0) {
        container["polls_left"] = container["polls_left"].get<long long>() - 1;
        return "IN_PROGRESS";
    }
    return container["error_message"].is_null() ? "FINISHED" : "ERROR";
}

const char* post_type(const std::string& container_type) {
    if (container_type == "TEXT") return "TEXT_POST";
    if (container_type == "CAROUSEL") return "CAROUSEL_ALBUM";
    if (container_type == "VIDEO") return "VIDEO";
    return "IMAGE";
}

json user_of(const std::string& id) {
    const auto& users = state().users;
    return users.contains(id) ? users[id] : json{{"id", id}, {"username", ""}, {"name", ""}};
}

json store_post(const std::string& user_id, const std::string& media_type, const std::string& text,
                const json& media_url, const json& children, const json& reply_to_id = nullptr) {
    const std::string id = new_id();
    const std::string username = user_of(user_id)["username"];
    json post = {{"id", id},
                 {"media_type", media_type},
                 {"text", text},
                 {"shortcode", "DThr" + id.substr(id.size() - 6)},
                 {"username", username},
                 {"timestamp", utc_now(0, "+0000")},
                 {"media_url", media_url},
                 {"children", children},
                 {"is_reply", !reply_to_id.is_null()}};
    if (!reply_to_id.is_null()) {
        post["replied_to"] = {{"id", reply_to_id}};
        const json* parent = find_post(reply_to_id.get<std::string>());
        post["root_post"] = parent && parent->contains("root_post") ? (*parent)["root_post"]
                                                                    : json{{"id", reply_to_id}};
        post["hide_status"] = "NOT_HUSHED";
    }
    post["permalink"] =
        "https://www.threads.net/@" + username + "/post/" + post["shortcode"].get<std::string>();
    state().posts[user_id].push_back(post);
    state().post_owner[id] = user_id;
    return post;
}

// GET /{id}/conversation: every reply under the caller's post, newest first unless reverse=false,
// a page of `limit` from the `after` cursor (the position, as "QVFIUr<n>").
HttpAnswer conversation(const Caller& caller, const std::string& id,
                        const std::map<std::string, std::string>& params) {
    if (!has_scope(caller.scopes, "threads_read_replies")) return no_permission();
    std::string owner;
    if (!find_post(id, &owner) || owner != caller.user_id) return missing_object("get", id);
    json replies = json::array();
    for (const auto& [user, posts] : state().posts.items())
        for (const auto& post : posts)
            if (post.value("root_post", json::object()).value("id", "") == id)
                replies.push_back(post);
    std::stable_sort(replies.begin(), replies.end(), [](const json& a, const json& b) {
        return std::stoll(a["id"].get<std::string>()) < std::stoll(b["id"].get<std::string>());
    });
    if (param(params, "reverse") != "false") std::reverse(replies.begin(), replies.end());
    long long limit = 25;
    if (const auto text = param(params, "limit"); !text.empty()) limit = std::atoll(text.c_str());
    if (limit < 1 || limit > 100) return invalid_parameter("Param limit must be between 1 and 100");
    const std::string after = param(params, "after");
    const size_t from = after.starts_with("QVFIUr") ? std::stoull(after.substr(6)) : 0;
    json data = json::array();
    for (size_t i = from; i < replies.size() && static_cast<long long>(data.size()) < limit; ++i)
        data.push_back(with_fields(replies[i], param(params, "fields")));
    const size_t end = from + data.size();
    json out = {{"data", data},
                {"paging",
                 {{"cursors",
                   {{"before", "QVFIUr" + std::to_string(from)},
                    {"after", "QVFIUr" + std::to_string(end)}}}}}};
    if (end < replies.size())
        out["paging"]["next"] = "https://graph.threads.net/v1.0/" + id +
                                "/conversation?after=QVFIUr" + std::to_string(end);
    return json_answer(200, out);
}

// POST /{reply-id}/manage_reply: the author of a thread hides or shows a top-level reply in it.
HttpAnswer manage_reply(const Caller& caller, const std::string& id,
                        const std::map<std::string, std::string>& params) {
    if (!has_scope(caller.scopes, "threads_manage_replies")) return no_permission();
    json* reply = find_post(id);
    if (!reply || !reply->contains("root_post")) return missing_object("post", id);
    std::string owner;
    find_post((*reply)["root_post"]["id"].get<std::string>(), &owner);
    if (owner != caller.user_id)
        return graph_error(400, "Only the author of the thread can hide its replies", 10);
    if ((*reply)["replied_to"]["id"] != (*reply)["root_post"]["id"])
        return invalid_parameter("Only top-level replies can be hidden or unhidden");
    const std::string hide = param(params, "hide");
    if (hide != "true" && hide != "false") return invalid_parameter("Param hide must be a boolean");
    (*reply)["hide_status"] = hide == "true" ? "HIDDEN" : "UNHUSHED";
    return json_answer(200, {{"success", true}});
}

// POST /{user-id}/threads_publish: a FINISHED container becomes a post.
HttpAnswer publish(const Caller& caller, const std::map<std::string, std::string>& params) {
    auto& s = state();
    if (!has_scope(caller.scopes, "threads_content_publish")) return no_permission();
    const std::string id = param(params, "creation_id");
    if (!s.containers.contains(id) || s.containers[id]["user_id"] != caller.user_id)
        return invalid_parameter("Param creation_id must be a valid media container id");
    json& container = s.containers[id];
    if (container["is_carousel_item"].get<bool>())
        return invalid_parameter("A carousel item cannot be published on its own");
    if (!container["media_id"].is_null())
        return invalid_parameter("The media container has already been published");
    if (container["polls_left"].get<long long>() > 0 || !container["error_message"].is_null())
        return graph_error(400, "The media is not ready for publishing, please wait for a moment",
                           24, 4279009);
    json children = json::array();
    for (const auto& child : container["children"]) {
        const json& item = s.containers[child.get<std::string>()];
        children.push_back(
            {{"id", new_id()}, {"media_type", "IMAGE"}, {"media_url", item["image_url"]}});
    }
    const json post =
        store_post(caller.user_id, post_type(container["media_type"]), container["text"],
                   container.value("image_url", container.value("video_url", json())), children,
                   container["reply_to_id"]);
    publish_log("threads", container.value("text", ""));
    container["media_id"] = post["id"];
    return json_answer(200, {{"id", post["id"]}});
}

// GET /{user-id}/threads: the user's posts, newest first.
HttpAnswer list_threads(const Caller& caller, const std::map<std::string, std::string>& params) {
    long long limit = 25;
    if (const auto text = param(params, "limit"); !text.empty()) limit = std::atoll(text.c_str());
    if (limit < 1 || limit > 100) return invalid_parameter("Param limit must be between 1 and 100");
    json data = json::array();
    const json posts = state().posts.value(caller.user_id, json::array());
    for (auto it = posts.rbegin();
         it != posts.rend() && static_cast<long long>(data.size()) < limit; ++it)
        data.push_back(with_fields(*it, param(params, "fields")));
    json out = {{"data", data}};
    if (!data.empty())
        out["paging"] = {{"cursors",
                          {{"before", "QVFIUb" + data.front()["id"].get<std::string>()},
                           {"after", "QVFIUa" + data.back()["id"].get<std::string>()}}}};
    return json_answer(200, out);
}

// GET or DELETE /{id}: the user, a container's status or a post.
HttpAnswer object(const HttpRequest& request, const Caller& caller, const std::string& id,
                  const std::map<std::string, std::string>& params) {
    auto& s = state();
    const std::string fields = param(params, "fields");
    if (request.method == "GET" && id == caller.user_id)
        return json_answer(200, with_fields(user_of(id), fields));
    // A container's status is read while it is published: answered before the posts are searched.
    if (request.method == "GET" && s.containers.contains(id) &&
        s.containers[id]["user_id"] == caller.user_id) {
        json& container = s.containers[id];
        json out = {{"id", id}, {"status", status_of(container)}};
        if (out["status"] == "ERROR" && fields.find("error_message") != std::string::npos)
            out["error_message"] = container["error_message"];
        return json_answer(200, out);
    }
    std::string owner;
    json* post = find_post(id, &owner);
    if (request.method == "DELETE") {
        if (!has_scope(caller.scopes, "threads_delete")) return no_permission();
        if (!post || owner != caller.user_id) return missing_object("delete", id);
        auto& posts = s.posts[owner];
        posts.erase(std::remove_if(posts.begin(), posts.end(),
                                   [&](const json& p) { return p["id"] == id; }),
                    posts.end());
        s.post_owner.erase(id);
        return json_answer(200, {{"success", true}, {"deleted_id", id}});
    }
    if (request.method != "GET")
        return missing_object(request.method == "POST" ? "post" : "get", id);
    if (post && owner == caller.user_id) {
        json shown = *post;
        if (shown.contains("root_post")) shown["is_reply_owned_by_me"] = true;
        return json_answer(200, with_fields(shown, fields));
    }
    // A reply under the caller's own thread is theirs to read (threads_read_replies).
    std::string root_owner;
    if (post && post->contains("root_post") &&
        find_post((*post)["root_post"]["id"].get<std::string>(), &root_owner) &&
        root_owner == caller.user_id && has_scope(caller.scopes, "threads_read_replies")) {
        json shown = *post;
        shown["is_reply_owned_by_me"] = false;
        return json_answer(200, with_fields(shown, fields));
    }
    return missing_object("get", id);
}

// The metrics an insights call asked for, or the 100 Threads answers for one it does not know.
std::variant<std::vector<std::string>, HttpAnswer> asked_metrics(
    const std::map<std::string, std::string>& params, const std::vector<std::string>& known) {
    const auto asked = split_list(param(params, "metric"));
    if (asked.empty()) return invalid_parameter("The parameter metric is required");
    for (const auto& name : asked)
        if (std::find(known.begin(), known.end(), name) == known.end())
            return invalid_parameter("metric[0] must be one of the following values: " + name);
    return asked;
}

// GET /{user-id}/threads_insights: followers_count as a total_value; the time-series metrics
// are not served.
HttpAnswer user_insights(const Caller& caller, const std::map<std::string, std::string>& params) {
    if (!has_scope(caller.scopes, "threads_manage_insights")) return no_permission();
    const auto asked = asked_metrics(params, {"followers_count"});
    if (const auto* refusal = std::get_if<HttpAnswer>(&asked)) return *refusal;
    const json user = user_of(caller.user_id);
    return json_answer(200, {{"data",
                              {{{"name", "followers_count"},
                                {"period", "day"},
                                {"title", "followers_count"},
                                {"description", "The number of followers on Threads"},
                                {"total_value", {{"value", user.value("followers_count", 0LL)}}},
                                {"id", caller.user_id + "/insights/followers_count/day"}}}}});
}

// GET /{media-id}/insights: the post's lifetime counts, each as values: [{value}].
HttpAnswer media_insights(const Caller& caller, const std::string& id,
                          const std::map<std::string, std::string>& params) {
    if (!has_scope(caller.scopes, "threads_manage_insights")) return no_permission();
    std::string owner;
    const json* post = find_post(id, &owner);
    if (!post || owner != caller.user_id) return missing_object("get", id);
    const auto asked =
        asked_metrics(params, {"views", "likes", "replies", "reposts", "quotes", "shares"});
    if (const auto* refusal = std::get_if<HttpAnswer>(&asked)) return *refusal;
    const json counts = post->value("insights", json::object());
    json data = json::array();
    for (const auto& name : std::get<std::vector<std::string>>(asked))
        data.push_back({{"name", name},
                        {"period", "lifetime"},
                        {"values", {{{"value", counts.value(name, 0LL)}}}},
                        {"title", name},
                        {"id", id + "/insights/" + name + "/lifetime"}});
    return json_answer(200, {{"data", data}});
}

HttpAnswer graph(const HttpRequest& request, const std::string& path,
                 const std::map<std::string, std::string>& params) {
    const auto who = authenticated(request, params);
    if (const auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
    const auto& caller = std::get<Caller>(who);
    const auto slash = path.find('/');
    std::string id = path.substr(0, slash);
    if (id == "me") id = caller.user_id;
    if (slash == std::string::npos) return object(request, caller, id, params);
    const std::string edge = path.substr(slash + 1);
    if (request.method == "GET" && edge == "insights") return media_insights(caller, id, params);
    if (request.method == "GET" && edge == "conversation") return conversation(caller, id, params);
    if (request.method == "POST" && edge == "manage_reply") return manage_reply(caller, id, params);
    if (request.method == "GET" && edge == "threads_insights" && id == caller.user_id)
        return user_insights(caller, params);
    if (id != caller.user_id || (edge != "threads" && edge != "threads_publish"))
        return missing_object(request.method == "GET" ? "get" : "post", id);
    if (edge == "threads" && request.method == "GET") return list_threads(caller, params);
    if (request.method != "POST") return missing_object("get", id);
    return edge == "threads" ? create_container(caller, params) : publish(caller, params);
}

HttpAnswer serve(const HttpRequest& request, const std::string& path) {
    const auto params = request.parameters();
    if (path == "/oauth/authorize" && request.method == "GET") return authorize(params);
    if (path == "/oauth/access_token" && request.method == "POST")
        return access_token_for_code(params);
    if (path == "/access_token" && request.method == "GET") return exchange_token(params);
    if (path == "/refresh_access_token" && request.method == "GET") return refresh_token(params);
    if (path.starts_with("/v1.0/")) return graph(request, path.substr(6), params);
    return invalid_parameter("Unsupported request - method type: " + request.method);
}

// oauth_client {client_id, client_secret}: the registered application. user {id, username,
// name}. next_consent {user_id, scopes?, deny?}: how the next consent page answers (scopes: those
// granted, all asked by default). expire {user_id}: the user's tokens answer 190.
// container_delay {polls}: new containers answer IN_PROGRESS that many status reads.
// post {user_id, text, media_type?, reply_to_id?}: a post made in the Threads app (REPOST_FACADE a
// repost; with reply_to_id a reply to that post).
// insights {post_id, counts: {views?, likes?, replies?, reposts?, quotes?, shares?}}: the post's
// lifetime counts (0 when not set). user takes followers_count? as well.
std::optional<HttpAnswer> control(const std::string& action, const json& body) {
    auto& s = state();
    if (action == "oauth_client") {
        s.client = {{"client_id", body.at("client_id")},
                    {"client_secret", body.at("client_secret")}};
    } else if (action == "user") {
        const std::string id = body.at("id");
        s.users[id] = {{"id", id},
                       {"username", body.at("username")},
                       {"name", body.value("name", "")},
                       {"followers_count", body.value("followers_count", 0LL)}};
    } else if (action == "next_consent") {
        s.next_consent = body;
    } else if (action == "expire") {
        for (auto& [token, record] : s.tokens.items())
            if (record["user_id"] == body.at("user_id")) record["expired"] = true;
    } else if (action == "container_delay") {
        s.container_delay = body.value("polls", 0LL);
    } else if (action == "insights") {
        json* post = find_post(body.at("post_id").get<std::string>());
        if (!post) return json_answer(404, {{"error", "no such post"}});
        (*post)["insights"] = body.at("counts");
    } else if (action == "post") {
        return json_answer(
            200, store_post(body.at("user_id").get<std::string>(),
                            body.value("media_type", "TEXT_POST"), body.value("text", ""), nullptr,
                            json::array(), body.value("reply_to_id", json())));
    } else {
        return std::nullopt;
    }
    return json_answer(200, json::object());
}

// The user removed the application in their settings: the token stops working.
void revoke(const std::string& token) {
    state().tokens.erase(token);
}

json messages() {
    return state().posts;
}

constexpr FakePlatform kFake{"threads", &serve, &control, &revoke, &messages, &reset_state<State>};
const FakeRegistration kRegistration(kFake);

}  // namespace
}  // namespace squawk::fakes::platforms::threads
