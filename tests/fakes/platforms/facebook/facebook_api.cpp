// The fake Facebook Graph API for Pages, under /v19.0: a Page's fields (read and, with
// pages_manage_metadata, updated: about, description, website, phone, emails, cover), its
// picture, feed posts (text, one photo, unpublished photos attached), photo stories, posts listed,
// edited and deleted, insights, and the video edges (facebook_videos.cpp), with the Graph error
// object {error: {message, type, code, error_subcode, fbtrace_id}} and the Page rate limit (code
// 32 with X-Business-Use-Case-Usage). Parameters are read from the query and a form body alike;
// the token from a Bearer or OAuth header or access_token.
#include "tests/fakes/platforms/facebook/facebook_fake.hpp"
#include "tests/fakes/platforms/fake_clock.hpp"

#include <algorithm>
#include <cstdlib>

namespace squawk::fakes::platforms::facebook {

using nlohmann::json;

namespace {

constexpr long long kIdBase = 100'000'000'000'000;
constexpr size_t kMaxMessageChars = 63'206;
constexpr long long kMaxPhotoBytes = 10LL * 1024 * 1024;
constexpr size_t kMaxAboutChars = 255;
// Page fields a Page token may change with POST /{page}.
constexpr const char* kEditableFields[] = {"about", "description", "website", "phone", "emails"};

size_t code_points(const std::string& text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

// Whether the fake media host's address says the image is one Facebook takes: JPEG, PNG, GIF,
// BMP or TIFF of at most 10 MB. Facebook fetches it itself; an address saying nothing passes.
bool image_acceptable(const std::string& url) {
    const auto question = url.find('?');
    const auto query = question == std::string::npos
                           ? Params()
                           : form_decode(std::string_view(url).substr(question + 1));
    const std::string type = param(query, "type");
    static const std::string kTypes[] = {"image/jpeg", "image/png", "image/gif", "image/bmp",
                                         "image/tiff"};
    if (!type.empty() && std::find(std::begin(kTypes), std::end(kTypes), type) == std::end(kTypes))
        return false;
    return std::atoll(param(query, "bytes").c_str()) <= kMaxPhotoBytes;
}

json* find_post(const std::string& id, std::string* page = nullptr) {
    for (auto& [page_id, posts] : state().posts.items())
        for (auto& post : posts)
            if (post["id"] == id) {
                if (page) *page = page_id;
                return &post;
            }
    return nullptr;
}

// The members of `object` that `fields` asks for, id always; a field with modifiers
// (comments.summary(true)) by its name.
json with_fields(const json& object, const std::string& fields) {
    json out = {{"id", object["id"]}};
    for (auto field : split_list(fields)) {
        field = field.substr(0, field.find('.'));
        if (object.contains(field) && !object[field].is_null()) out[field] = object[field];
    }
    return out;
}

HttpAnswer photo(const Caller& caller, const Params& params) {
    if (!caller.has("pages_manage_posts")) return missing_permission("pages_manage_posts");
    const std::string url = param(params, "url");
    if (url.empty()) return invalid_parameter("(#324) Requires upload file");
    if (!image_acceptable(url))
        return graph_error(400, "(#100) Invalid image: the file is not a supported image", 100,
                           2069019);
    const std::string message = param(params, "message");
    if (code_points(message) > kMaxMessageChars)
        return invalid_parameter("(#100) The message is too long");
    const std::string id = new_id();
    const bool published = param(params, "published") != "false";
    state().photos[id] = {{"page_id", caller.page_id()}, {"url", url}, {"published", published}};
    if (!published) return json_answer(200, {{"id", id}});
    const json post = store_post(caller.page_id(), "photo", message,
                                 json::array({{{"photo_id", id}, {"url", url}}}));
    publish_log("facebook", message);
    return json_answer(200, {{"id", id}, {"post_id", post["id"]}});
}

// An unpublished photo of the caller's Page, not yet used: its record, or null.
json* unused_photo(const Caller& caller, const std::string& id) {
    auto& photos = state().photos;
    if (!photos.contains(id) || photos[id]["page_id"] != caller.page_id() ||
        photos[id]["published"].get<bool>() || photos[id].value("used", false))
        return nullptr;
    return &photos[id];
}

HttpAnswer feed(const Caller& caller, const Params& params) {
    if (!caller.has("pages_manage_posts")) return missing_permission("pages_manage_posts");
    const std::string message = param(params, "message");
    if (code_points(message) > kMaxMessageChars)
        return invalid_parameter("(#100) The message is too long");
    json media = json::array();
    std::vector<json*> used;
    for (size_t i = 0; params.contains("attached_media[" + std::to_string(i) + "]"); ++i) {
        const json item =
            json::parse(param(params, "attached_media[" + std::to_string(i) + "]"), nullptr, false);
        const std::string id = item.is_object() ? item.value("media_fbid", "") : "";
        json* photo = unused_photo(caller, id);
        if (!photo)
            return invalid_parameter("(#100) attached_media[" + std::to_string(i) +
                                     "] must name an unpublished photo of the Page");
        used.push_back(photo);
        media.push_back({{"photo_id", id}, {"url", (*photo)["url"]}});
    }
    if (message.empty() && media.empty() && param(params, "link").empty())
        return invalid_parameter("(#100) Missing message or attachment");
    for (json* photo : used) (*photo)["used"] = true;
    const json post =
        store_post(caller.page_id(), media.empty() ? "status" : "album", message, media);
    publish_log("facebook", message);
    return json_answer(200, {{"id", post["id"]}});
}

HttpAnswer photo_story(const Caller& caller, const Params& params) {
    if (!caller.has("pages_manage_posts")) return missing_permission("pages_manage_posts");
    const std::string id = param(params, "photo_id");
    json* photo = unused_photo(caller, id);
    if (!photo) return invalid_parameter("(#100) photo_id must name an unpublished photo");
    (*photo)["used"] = true;
    const json story = store_post(caller.page_id(), "story", "",
                                  json::array({{{"photo_id", id}, {"url", (*photo)["url"]}}}));
    return json_answer(200, {{"success", true}, {"post_id", story["id"]}});
}

HttpAnswer list_posts(const Caller& caller, const Params& params) {
    if (!caller.has("pages_read_engagement")) return missing_permission("pages_read_engagement");
    long long limit = 25;
    if (const auto text = param(params, "limit"); !text.empty()) limit = std::atoll(text.c_str());
    if (limit < 1 || limit > 100) return invalid_parameter("(#100) limit must be 1 to 100");
    json data = json::array();
    const json posts = state().posts.value(caller.page_id(), json::array());
    for (auto it = posts.rbegin();
         it != posts.rend() && static_cast<long long>(data.size()) < limit; ++it)
        if ((*it)["kind"] != "story") data.push_back(with_fields(*it, param(params, "fields")));
    return json_answer(200, {{"data", data}});
}

HttpAnswer picture(const Caller& caller, const Params& params) {
    if (!caller.has("pages_manage_metadata")) return missing_permission("pages_manage_metadata");
    const std::string url = param(params, "picture");
    if (url.empty() || !image_acceptable(url))
        return invalid_parameter("(#100) picture must be the URL of a supported image");
    state().pages[caller.page_id()]["picture"] = url;
    return json_answer(200, {{"success", true}});
}

HttpAnswer update_page(const Caller& caller, const Params& params) {
    if (!caller.has("pages_manage_metadata")) return missing_permission("pages_manage_metadata");
    json& page = state().pages[caller.page_id()];
    json changes = json::object();
    for (const char* field : kEditableFields)
        if (params.contains(field)) changes[field] = param(params, field);
    if (changes.contains("about") && code_points(changes["about"]) > kMaxAboutChars)
        return invalid_parameter("(#100) about must be at most 255 characters");
    if (changes.contains("website") && !changes["website"].get<std::string>().starts_with("http"))
        return invalid_parameter("(#100) website must be a URL");
    if (changes.contains("emails")) {
        const json emails = json::parse(changes["emails"].get<std::string>(), nullptr, false);
        if (!emails.is_array()) return invalid_parameter("(#100) emails must be a JSON array");
        changes["emails"] = emails;
    }
    if (params.contains("cover")) {
        json* photo = unused_photo(caller, param(params, "cover"));
        if (!photo) return invalid_parameter("(#100) cover must name an unpublished photo");
        const long long offset_y = std::atoll(param(params, "offset_y").c_str());
        if (offset_y < 0 || offset_y > 100)
            return invalid_parameter("(#100) offset_y must be 0 to 100");
        (*photo)["used"] = true;
        changes["cover"] = {{"cover_id", param(params, "cover")},
                            {"source", (*photo)["url"]},
                            {"offset_y", offset_y}};
    }
    if (changes.empty()) return invalid_parameter("(#100) No field to update");
    page.update(changes);
    return json_answer(200, {{"success", true}});
}

HttpAnswer insights(const Caller& caller, const std::string& id, const Params& params) {
    if (!caller.has("read_insights")) return missing_permission("read_insights");
    const json values = state().insights.value(id, json::object());
    json data = json::array();
    for (const auto& metric : split_list(param(params, "metric")))
        data.push_back({{"name", metric},
                        {"period", "lifetime"},
                        {"values", json::array({{{"value", values.value(metric, 0LL)}}})}});
    return json_answer(200, {{"data", data}});
}

// GET, POST or DELETE /{id}: the Page, or one of its posts or videos.
HttpAnswer object(const HttpRequest& request, const Caller& caller, const std::string& id,
                  const Params& params) {
    auto& s = state();
    if (id == caller.page_id()) {
        if (request.method == "POST") return update_page(caller, params);
        if (request.method != "GET") return missing_object("delete", id);
        return json_answer(200, with_fields(s.pages[id], param(params, "fields")));
    }
    std::string owner;
    json* post = find_post(id, &owner);
    if (!post || owner != caller.page_id())
        return missing_object(request.method == "GET"    ? "get"
                              : request.method == "POST" ? "post"
                                                         : "delete",
                              id);
    if (request.method == "GET") {
        if (!caller.has("pages_read_engagement"))
            return missing_permission("pages_read_engagement");
        json out = with_fields(*post, param(params, "fields"));
        const json counts = s.insights.value(id, json::object());
        const std::string fields = param(params, "fields");
        if (fields.find("reactions") != std::string::npos)
            out["reactions"] = {{"data", json::array()},
                                {"summary", {{"total_count", counts.value("reactions", 0LL)}}}};
        if (fields.find("comments") != std::string::npos)
            out["comments"] = {{"data", json::array()},
                               {"summary", {{"total_count", counts.value("comments", 0LL)}}}};
        if (fields.find("shares") != std::string::npos && counts.contains("shares"))
            out["shares"] = {{"count", counts["shares"]}};
        return json_answer(200, out);
    }
    if (!caller.has("pages_manage_posts")) return missing_permission("pages_manage_posts");
    if (request.method == "DELETE") {
        auto& posts = s.posts[owner];
        posts.erase(std::remove_if(posts.begin(), posts.end(),
                                   [&](const json& p) { return p["id"] == id; }),
                    posts.end());
        return json_answer(200, {{"success", true}});
    }
    const bool video = (*post)["kind"] == "video" || (*post)["kind"] == "reel";
    const char* field = video ? "description" : "message";
    if (!params.contains(field))
        return invalid_parameter(std::string("(#100) ") + field + " is required");
    if (code_points(param(params, field)) > kMaxMessageChars)
        return invalid_parameter("(#100) The message is too long");
    (*post)["message"] = param(params, field);
    (*post)["updated_time"] = utc_now(0, "+0000");
    return json_answer(200, {{"success", true}});
}

HttpAnswer throttled() {
    auto& s = state();
    --s.throttled_calls;
    HttpAnswer answer =
        graph_error(400, "(#32) Page request limit reached", 32, 0, "OAuthException");
    json usage = json::object();
    for (const auto& [id, page] : s.pages.items())
        usage[id] = json::array({{{"type", "pages"},
                                  {"call_count", 100},
                                  {"total_cputime", 40},
                                  {"total_time", 60},
                                  {"estimated_time_to_regain_access", s.throttle_minutes}}});
    answer.headers.emplace_back("X-Business-Use-Case-Usage", usage.dump());
    return answer;
}

HttpAnswer graph(const HttpRequest& request, const std::string& path, const Params& params) {
    const auto who = authenticated(request, params);
    if (const auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
    const auto& caller = std::get<Caller>(who);
    if (!caller.page_token())
        return graph_error(400, "(#190) This method must be called with a Page Access Token", 190);
    if (state().throttled_calls > 0) return throttled();
    const auto slash = path.find('/');
    std::string id = path.substr(0, slash);
    if (id == "me") id = caller.page_id();
    const std::string edge = slash == std::string::npos ? "" : path.substr(slash + 1);
    if (auto inbox = serve_inbox(request, caller, id, edge, params)) return *inbox;
    if (slash == std::string::npos) return object(request, caller, id, params);
    if (edge == "insights" || edge == "video_insights") {
        std::string owner;
        const bool own_video =
            state().videos.contains(id) && state().videos[id]["page_id"] == caller.page_id();
        if (!own_video && (!find_post(id, &owner) || owner != caller.page_id()))
            return missing_object("get", id);
        return insights(caller, id, params);
    }
    if (id != caller.page_id()) return missing_object("post", id);
    if (edge == "posts" && request.method == "GET") return list_posts(caller, params);
    if (request.method != "POST") return missing_object("get", id);
    if (edge == "feed") return feed(caller, params);
    if (edge == "photos") return photo(caller, params);
    if (edge == "photo_stories") return photo_story(caller, params);
    if (edge == "picture") return picture(caller, params);
    if (edge == "videos" || edge == "video_reels" || edge == "video_stories")
        return videos_edge(request, caller, edge, params);
    return missing_object("post", id);
}

HttpAnswer serve(const HttpRequest& request, const std::string& path) {
    const auto params = request.parameters();
    if (auto login = serve_login(request, path, params)) return *login;
    const std::string upload = "/rupload/video-upload/v19.0/";
    if (path.starts_with(upload) && request.method == "POST")
        return upload_host(request, path.substr(upload.size()));
    if (path.starts_with("/v19.0/")) return graph(request, path.substr(7), params);
    return invalid_parameter("Unsupported request - method type: " + request.method);
}

// oauth_client {client_id, client_secret}. user {id, name, pages}: a user managing those Pages.
// page {id, name, username?, followers_count?, fan_count?, ...}. next_consent {user_id, scopes?,
// pages?, deny?}: how the next consent page answers (scopes and Pages granted: all by default).
// expire {user_id}: the user's tokens answer 190. unmanage {user_id, page_id}: the user no longer
// manages the Page. insights {id, metrics}: counts of a post or video. throttle {calls,
// minutes}: the next Graph calls answer code 32. post {page_id, message}: a post made on Facebook.
// comment {post_id, parent_id?, from {id, name}, message}: a comment someone wrote.
// messenger_user {page_id, id}: a person who wrote to the Page. inbox: the comments and the Send
// API's calls.
std::optional<HttpAnswer> control(const std::string& action, const json& body) {
    auto& s = state();
    if (action == "oauth_client") {
        s.client = {{"client_id", body.at("client_id")},
                    {"client_secret", body.at("client_secret")}};
    } else if (action == "user") {
        s.users[body.at("id").get<std::string>()] = body;
    } else if (action == "page") {
        json page = body;
        if (!page.contains("username")) page["username"] = nullptr;
        s.pages[body.at("id").get<std::string>()] = page;
    } else if (action == "next_consent") {
        s.next_consent = body;
    } else if (action == "expire") {
        for (auto& [token, record] : s.tokens.items())
            if (record["user_id"] == body.at("user_id")) record["expired"] = true;
    } else if (action == "unmanage") {
        auto& pages = s.users[body.at("user_id").get<std::string>()]["pages"];
        pages.erase(std::remove(pages.begin(), pages.end(), body.at("page_id")), pages.end());
    } else if (action == "insights") {
        s.insights[body.at("id").get<std::string>()] = body.at("metrics");
    } else if (action == "throttle") {
        s.throttled_calls = body.value("calls", 1LL);
        s.throttle_minutes = body.value("minutes", 1LL);
    } else if (action == "post") {
        return json_answer(200, store_post(body.at("page_id"), "status", body.value("message", ""),
                                           json::array()));
    } else if (action == "comment") {
        return json_answer(200, add_comment(body.at("post_id"), body.value("parent_id", ""),
                                            body.at("from"), body.at("message")));
    } else if (action == "messenger_user") {
        s.messenger_users[body.at("page_id").get<std::string>()].push_back(body.at("id"));
    } else if (action == "inbox") {
        return json_answer(200, {{"comments", s.comments}, {"messenger", s.messenger}});
    } else if (action == "page_state") {
        return json_answer(200, s.pages.value(body.at("id").get<std::string>(), json()));
    } else {
        return std::nullopt;
    }
    return json_answer(200, json::object());
}

void revoke(const std::string& token) {
    state().tokens.erase(token);
}

json messages() {
    return state().posts;
}

constexpr FakePlatform kFake{"facebook", &serve, &control, &revoke, &messages, &reset_state<State>};
const FakeRegistration kRegistration(kFake);

}  // namespace

State& state() {
    return fake_state<State>();
}

std::string new_id() {
    return std::to_string(kIdBase + next_message_id());
}

HttpAnswer graph_error(int status, const std::string& message, int code, int subcode,
                       const std::string& type) {
    json error = {{"message", message}, {"type", type}, {"code", code}, {"fbtrace_id", "AfBtRaCe"}};
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

HttpAnswer missing_permission(const std::string& permission) {
    return graph_error(403, "(#200) Requires " + permission + " permission to manage the object",
                       200);
}

std::string param(const Params& params, const std::string& name) {
    const auto found = params.find(name);
    return found == params.end() ? std::string() : found->second;
}

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> items;
    std::string item;
    int depth = 0;  // commas inside a field's modifiers (limit(0)) do not split
    for (const char c : text + ",") {
        if (c == '(') ++depth;
        if (c == ')') --depth;
        if ((c == ',' || c == ' ') && depth == 0) {
            if (!item.empty()) items.push_back(item);
            item.clear();
        } else {
            item += c;
        }
    }
    return items;
}

bool has_scope(const json& scopes, const std::string& scope) {
    return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
}

std::variant<Caller, HttpAnswer> authenticated(const HttpRequest& request, const Params& params) {
    const auto auth = request.headers.find("authorization");
    std::string token = param(params, "access_token");
    if (auth != request.headers.end()) {
        if (auth->second.starts_with("Bearer ")) token = auth->second.substr(7);
        if (auth->second.starts_with("OAuth ")) token = auth->second.substr(6);
    }
    auto& tokens = state().tokens;
    if (token.empty() || !tokens.contains(token))
        return graph_error(400, "Invalid OAuth access token - Cannot parse access token", 190);
    const json& record = tokens[token];
    if (record["expired"].get<bool>() ||
        (record.contains("expires_at") && record["expires_at"].get<long long>() < unix_now()))
        return graph_error(400,
                           "Error validating access token: The session has been invalidated "
                           "because the user changed their password or Facebook has changed the "
                           "session for security reasons.",
                           190, 460);
    // A Page token stops working once its user no longer manages the Page.
    if (record["kind"] == "page") {
        const json pages = state()
                               .users.value(record["user_id"].get<std::string>(), json::object())
                               .value("pages", json::array());
        if (std::find(pages.begin(), pages.end(), record["page_id"]) == pages.end())
            return graph_error(400,
                               "Error validating access token: The user is not an administrator "
                               "of the Page",
                               190, 492);
    }
    return Caller{record};
}

json store_post(const std::string& page_id, const std::string& kind, const std::string& message,
                json media) {
    const std::string id = page_id + "_" + new_id();
    const std::string now = utc_now(0, "+0000");
    json post = {{"id", id},
                 {"kind", kind},
                 {"message", message},
                 {"created_time", now},
                 {"updated_time", now},
                 {"permalink_url", "https://www.facebook.com/" + id},
                 {"media", std::move(media)}};
    state().posts[page_id].push_back(post);
    return post;
}

}  // namespace squawk::fakes::platforms::facebook
