// The fake Instagram Graph API (graph.facebook.com with Facebook Login): under /v19.0 the user's
// Pages (me/accounts) and permissions, the Instagram professional account linked to a Page, media
// containers (an image, carousel items and the carousel, REELS and STORIES) read until FINISHED
// and published (media_publish, answering the fields asked as the Graph API's read-after-write
// does), videos sent by resumable upload to the address a container names
// (/ig-api-upload/v19.0/{id}, with offset and file_size headers), comments, the account's media,
// and insights; errors in the Graph shape {error: {message, type, code, error_subcode,
// fbtrace_id}}, throttling with X-Business-Use-Case-Usage. Parameters are read from the query and
// a form body alike, as the Graph API reads them; the token from a Bearer header or access_token.
#include "tests/fakes/platforms/fake_clock.hpp"
#include "tests/fakes/platforms/instagram/instagram_state.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <vector>

namespace squawk::fakes::platforms::instagram {
namespace {

constexpr size_t kMaxCaptionChars = 2200;
constexpr size_t kMaxHashtags = 30;
constexpr size_t kMinCarouselItems = 2;
constexpr size_t kMaxCarouselItems = 10;
constexpr size_t kMaxCollaborators = 3;
constexpr long long kMaxImageBytes = 8LL * 1024 * 1024;
// Graph ids are long numbers; the fake's own sequence is added to this.
constexpr long long kIdBase = 17'900'000'000'000'000;
const std::string kUploadPath = "/ig-api-upload/v19.0/";

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> items;
    std::string item;
    for (const char c : text + ",") {
        if (c == ',') {
            if (!item.empty()) items.push_back(item);
            item.clear();
        } else if (c != ' ') {
            item += c;
        }
    }
    return items;
}

size_t code_points(const std::string& text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

size_t hashtags(const std::string& text) {
    size_t count = 0;
    for (size_t i = 0; i + 1 < text.size(); ++i) {
        const auto next = static_cast<unsigned char>(text[i + 1]);
        if (text[i] == '#' && (std::isalnum(next) || next == '_' || next >= 0x80)) ++count;
    }
    return count;
}

}  // namespace

HttpAnswer no_permission() {
    return graph_error(403, "(#10) Application does not have permission for this action", 10);
}

HttpAnswer missing_object(const std::string& verb, const std::string& id) {
    return graph_error(400,
                       "Unsupported " + verb + " request. Object with ID '" + id +
                           "' does not exist, cannot be loaded due to missing permissions, or "
                           "does not support this operation",
                       100, 33, "GraphMethodException");
}

json with_fields(const json& object, const std::string& fields) {
    json out = {{"id", object["id"]}};
    for (const auto& field : split_list(fields))
        if (object.contains(field) && !object[field].is_null()) out[field] = object[field];
    return out;
}

bool manages(const Caller& caller, const std::string& account_id) {
    const auto& s = state();
    if (!s.accounts.contains(account_id)) return false;
    const std::string page = s.accounts[account_id]["page_id"];
    return s.pages.contains(page) && s.pages[page]["user_id"] == caller.user_id;
}

json* find_media(const std::string& id, std::string* owner) {
    auto& s = state();
    const auto account = s.media_owner.find(id);
    if (account == s.media_owner.end() || !s.media.contains(account->second)) return nullptr;
    for (auto& item : s.media[account->second])
        if (item["id"] == id) {
            if (owner) *owner = account->second;
            return &item;
        }
    return nullptr;
}

namespace {

// Whether the fake media host's address says the image is one Instagram takes: a JPEG of at most
// 8 MB. Instagram fetches it itself; an address saying nothing passes.
std::string image_problem(const std::string& url) {
    const auto question = url.find('?');
    const auto query = question == std::string::npos
                           ? Params()
                           : form_decode(std::string_view(url).substr(question + 1));
    const std::string type = param(query, "type");
    if (!type.empty() && type != "image/jpeg")
        return "Error: The image format is not supported. Only JPEG format is supported.";
    if (std::atoll(param(query, "bytes").c_str()) > kMaxImageBytes)
        return "Error: The image is too large. Images may be at most 8 MB.";
    return "";
}

// POST /{ig-user-id}/media: a media container.
HttpAnswer create_container(const HttpRequest& request, const Caller& caller,
                            const std::string& account, const Params& params) {
    auto& s = state();
    if (!caller.has("instagram_content_publish")) return no_permission();
    const std::string type = param(params, "media_type");
    const std::string caption = param(params, "caption");
    const bool item = param(params, "is_carousel_item") == "true";
    const bool resumable = param(params, "upload_type") == "resumable";
    if (type != "" && type != "IMAGE" && type != "CAROUSEL" && type != "REELS" &&
        type != "STORIES" && type != "VIDEO")
        return invalid_parameter(
            "(#100) Param media_type must be one of {CAROUSEL, REELS, "
            "STORIES, VIDEO} or empty for an image");
    if (code_points(caption) > kMaxCaptionChars)
        return graph_error(400, "The caption is longer than 2200 characters.", 100, 2207004);
    if (hashtags(caption) > kMaxHashtags)
        return graph_error(400, "The caption has more than 30 hashtags.", 100, 2207004);
    if (item && (type == "REELS" || type == "STORIES" || type == "CAROUSEL"))
        return invalid_parameter("(#100) Only images and videos can be carousel items");
    if (params.contains("share_to_feed") && type != "REELS")
        return invalid_parameter("(#100) Param share_to_feed applies to REELS only");
    if (params.contains("collaborators")) {
        const auto names = json::parse(param(params, "collaborators"), nullptr, false);
        if (type == "STORIES" || !names.is_array() || names.size() > kMaxCollaborators)
            return invalid_parameter(
                "(#100) Param collaborators must be a list of at most 3 usernames");
    }
    json container = {{"id", new_id()},
                      {"user_id", account},
                      {"media_type", type.empty() ? "IMAGE" : type},
                      {"caption", caption},
                      {"is_carousel_item", item},
                      {"children", json::array()},
                      {"polls_left", s.container_delay},
                      {"error", nullptr},
                      {"resumable", resumable},
                      {"file_size", 0},
                      {"received", 0},
                      {"chunks", json::array()},
                      {"media_id", nullptr},
                      {"image_url", nullptr},
                      {"options", json::object()}};
    for (const char* option : {"collaborators", "location_id", "share_to_feed", "thumb_offset"})
        if (params.contains(option)) container["options"][option] = param(params, option);
    const bool video =
        type == "REELS" || type == "VIDEO" || (type == "STORIES" && !params.contains("image_url"));
    if (video) {
        if (!resumable && param(params, "video_url").empty())
            return invalid_parameter(
                "(#100) Param video_url is required unless upload_type is "
                "resumable");
    } else if (type == "CAROUSEL") {
        const auto children = split_list(param(params, "children"));
        if (children.size() < kMinCarouselItems || children.size() > kMaxCarouselItems)
            return invalid_parameter("(#100) Param children must name 2 to 10 carousel items");
        for (const auto& child : children) {
            if (!s.containers.contains(child) || s.containers[child]["user_id"] != account ||
                !s.containers[child]["is_carousel_item"].get<bool>())
                return invalid_parameter("(#100) Param children has an invalid carousel item: " +
                                         child);
            if (!s.containers[child]["error"].is_null())
                container["error"] = s.containers[child]["error"];
            container["children"].push_back(child);
        }
    } else {
        const std::string url = param(params, "image_url");
        if (!url.starts_with("http://") && !url.starts_with("https://"))
            return invalid_parameter("(#100) Param image_url is required for an image");
        container["image_url"] = url;
        if (const auto problem = image_problem(url); !problem.empty()) container["error"] = problem;
    }
    if (!item && !s.next_container_error.is_null()) {
        container["error"] = s.next_container_error;
        s.next_container_error = nullptr;
    }
    const std::string id = container["id"];
    s.containers[id] = container;
    json out = {{"id", id}};
    if (resumable) {
        const auto host = request.headers.find("host");
        out["uri"] = "http://" + (host == request.headers.end() ? "127.0.0.1" : host->second) +
                     "/instagram" + kUploadPath + id;
    }
    return json_answer(200, out);
}

bool uploaded(const json& container) {
    return !container["resumable"].get<bool>() || (container["file_size"].get<long long>() > 0 &&
                                                   container["received"] == container["file_size"]);
}

std::string status_of(json& container) {
    if (!container["media_id"].is_null()) return "PUBLISHED";
    if (!uploaded(container)) return "IN_PROGRESS";
    if (container["polls_left"].get<long long>() > 0) {
        container["polls_left"] = container["polls_left"].get<long long>() - 1;
        return "IN_PROGRESS";
    }
    return container["error"].is_null() ? "FINISHED" : "ERROR";
}

const char* product_of(const std::string& container_type) {
    if (container_type == "REELS") return "REELS";
    if (container_type == "STORIES") return "STORY";
    return "FEED";
}

json store_media(const std::string& account, const std::string& media_type,
                 const std::string& product, const std::string& caption, const json& children) {
    const std::string id = new_id();
    const std::string shortcode = "DIg" + id.substr(id.size() - 8);
    json media = {{"id", id},
                  {"caption", caption},
                  {"media_type", media_type},
                  {"media_product_type", product},
                  {"timestamp", utc_now(0, "+0000")},
                  {"like_count", 0},
                  {"comments_count", 0},
                  {"comments", json::array()},
                  {"insights", {{"reach", 0}, {"saved", 0}, {"shares", 0}, {"views", 0}}},
                  {"children", children}};
    const std::string username = state().accounts[account].value("username", "");
    media["permalink"] =
        product == "STORY" ? "https://www.instagram.com/stories/" + username + "/" + id + "/"
                           : "https://www.instagram.com/" +
                                 std::string(product == "REELS" ? "reel/" : "p/") + shortcode + "/";
    state().media[account].push_back(media);
    state().media_owner[id] = account;
    return media;
}

// POST /{ig-user-id}/media_publish: a FINISHED container becomes media.
HttpAnswer publish(const Caller& caller, const std::string& account, const Params& params) {
    auto& s = state();
    if (!caller.has("instagram_content_publish")) return no_permission();
    const std::string id = param(params, "creation_id");
    if (!s.containers.contains(id) || s.containers[id]["user_id"] != account)
        return invalid_parameter("(#100) Param creation_id must be a valid media container id");
    json& container = s.containers[id];
    if (container["is_carousel_item"].get<bool>())
        return invalid_parameter("(#100) A carousel item cannot be published on its own");
    if (!container["media_id"].is_null())
        return graph_error(400, "The media container has already been published", 100, 2207008);
    if (!uploaded(container) || container["polls_left"].get<long long>() > 0 ||
        !container["error"].is_null())
        return graph_error(400, "Media ID is not available", 9007, 2207027);
    const std::string type = container["media_type"];
    const std::string media_type = type == "CAROUSEL"                   ? "CAROUSEL_ALBUM"
                                   : container["resumable"].get<bool>() ? "VIDEO"
                                                                        : "IMAGE";
    json children = json::array();
    for (const auto& child : container["children"])
        children.push_back({{"id", new_id()},
                            {"media_type", "IMAGE"},
                            {"media_url", s.containers[child.get<std::string>()]["image_url"]}});
    const json media =
        store_media(account, media_type, product_of(type), container["caption"], children);
    publish_log("instagram", container.value("caption", ""));
    container["media_id"] = media["id"];
    // Read-after-write: a Graph POST answers the id of what it made and the `fields` asked.
    return json_answer(200, with_fields(media, param(params, "fields")));
}

// GET /{ig-user-id}/media: the account's feed media and reels, newest first.
HttpAnswer list_media(const std::string& account, const Params& params) {
    long long limit = 25;
    if (const auto text = param(params, "limit"); !text.empty()) limit = std::atoll(text.c_str());
    if (limit < 1 || limit > 100)
        return invalid_parameter("(#100) Param limit must be between 1 and 100");
    json data = json::array();
    const json items = state().media.value(account, json::array());
    for (auto it = items.rbegin();
         it != items.rend() && static_cast<long long>(data.size()) < limit; ++it)
        if ((*it)["media_product_type"] != "STORY")
            data.push_back(with_fields(*it, param(params, "fields")));
    return json_answer(200, {{"data", data}});
}

json insight(const std::string& name, long long value, bool total) {
    json out = {{"name", name}, {"period", total ? "day" : "lifetime"}, {"id", new_id()}};
    if (total)
        out["total_value"] = {{"value", value}};
    else
        out["values"] = json::array({{{"value", value}}});
    return out;
}

// GET /{ig-user-id}/insights: the account's reach and views of the day.
HttpAnswer account_insights(const Caller& caller, const std::string& account,
                            const Params& params) {
    if (!caller.has("instagram_manage_insights")) return no_permission();
    if (param(params, "period") != "day")
        return invalid_parameter("(#100) Param period must be day for these metrics");
    const json& values = state().accounts[account]["insights"];
    json data = json::array();
    for (const auto& metric : split_list(param(params, "metric"))) {
        if (metric != "reach" && metric != "views")
            return invalid_parameter(
                "(#100) metric[0] must be one of the following values: "
                "reach, views, follower_count, profile_views");
        if (metric == "views" && param(params, "metric_type") != "total_value")
            return invalid_parameter(
                "(#100) The following metrics (views) should be specified "
                "with parameter metric_type=total_value");
        data.push_back(insight(metric, values.value(metric, 0LL), true));
    }
    return json_answer(200, {{"data", data}});
}

// GET /{media-id}/insights: a media's reach, saves, shares and views.
HttpAnswer media_insights(const Caller& caller, const json& media, const Params& params) {
    if (!caller.has("instagram_manage_insights")) return no_permission();
    const bool story = media["media_product_type"] == "STORY";
    json data = json::array();
    size_t index = 0;
    for (const auto& metric : split_list(param(params, "metric"))) {
        const bool known = metric == "reach" || metric == "shares" || metric == "views" ||
                           (metric == "saved" && !story);
        if (!known)
            return invalid_parameter("(#100) metric[" + std::to_string(index) +
                                     "] must be one of the following values: reach, shares, "
                                     "views" +
                                     (story ? std::string(", replies, navigation") : ", saved"));
        data.push_back(insight(metric, media["insights"].value(metric, 0LL), false));
        ++index;
    }
    return json_answer(200, {{"data", data}});
}

// POST /{media-id}/comments: a comment by the account itself.
HttpAnswer add_comment(const Caller& caller, const std::string& owner, json& media,
                       const Params& params) {
    if (!caller.has("instagram_manage_comments"))
        return graph_error(403, "(#200) Permissions error", 200);
    const std::string message = param(params, "message");
    if (message.empty()) return invalid_parameter("(#100) Param message is required");
    if (code_points(message) > kMaxCaptionChars)
        return invalid_parameter("(#100) Param message must be at most 2200 characters long");
    const auto& account = state().accounts[owner];
    const json comment =
        store_comment(media, {{"id", account["id"]}, {"username", account["username"]}}, message);
    return json_answer(200, {{"id", comment["id"]}});
}

// GET /{id}, GET|POST /{id}/{edge}: a Facebook user (me), an Instagram account, a container or
// media.
HttpAnswer object(const HttpRequest& request, const Caller& caller, const std::string& id,
                  const std::string& edge, const Params& params) {
    auto& s = state();
    const std::string fields = param(params, "fields");
    const std::string& method = request.method;
    // Accounts, containers and media are found by their id; only other ids are searched among
    // comments.
    if (!s.accounts.contains(id) && !s.containers.contains(id) && !s.media_owner.contains(id))
        if (auto comment = comment_call(request, caller, id, edge, params)) return *comment;
    if (method == "DELETE") return missing_object("delete", id);
    if (s.accounts.contains(id)) {
        if (!manages(caller, id)) return missing_object("get", id);
        if (!caller.has("instagram_basic")) return no_permission();
        if (edge == "media" && method == "POST")
            return create_container(request, caller, id, params);
        if (edge == "media" && method == "GET") return list_media(id, params);
        if (edge == "media_publish" && method == "POST") return publish(caller, id, params);
        if (edge == "insights" && method == "GET") return account_insights(caller, id, params);
        if (!edge.empty() || method != "GET") return missing_object("post", id);
        json account = s.accounts[id];
        account["media_count"] = s.media.value(id, json::array()).size();
        return json_answer(200, with_fields(account, fields));
    }
    if (s.containers.contains(id) && manages(caller, s.containers[id]["user_id"]) && edge.empty() &&
        method == "GET") {
        json& container = s.containers[id];
        json out = {{"id", id}, {"status_code", status_of(container)}};
        if (out["status_code"] == "ERROR" && fields.find("status") != std::string::npos)
            out["status"] = container["error"];
        return json_answer(200, with_fields(out, fields.empty() ? "status_code" : fields));
    }
    std::string owner;
    json* media = find_media(id, &owner);
    if (!media || !manages(caller, owner))
        return missing_object(method == "GET" ? "get" : "post", id);
    if (!caller.has("instagram_basic")) return no_permission();
    if (edge == "insights" && method == "GET") return media_insights(caller, *media, params);
    if (edge == "comments" && method == "POST") return add_comment(caller, owner, *media, params);
    if (edge == "comments" && method == "GET") return list_comments(caller, *media, params);
    if (!edge.empty() || method != "GET") return missing_object("post", id);
    return json_answer(200, with_fields(*media, fields));
}

// me, me/permissions, me/accounts: the Facebook user behind the token.
HttpAnswer me(const Caller& caller, const std::string& edge, const Params& params) {
    auto& s = state();
    if (edge == "permissions") {
        json data = json::array({{{"permission", "public_profile"}, {"status", "granted"}}});
        for (const auto& scope : caller.scopes)
            data.push_back({{"permission", scope}, {"status", "granted"}});
        return json_answer(200, {{"data", data}});
    }
    if (edge == "accounts") {
        json data = json::array();
        // Without pages_show_list Facebook lists no Pages.
        if (caller.has("pages_show_list"))
            for (const auto& [id, page] : s.pages.items()) {
                if (page["user_id"] != caller.user_id) continue;
                json shown = page;
                if (shown["instagram_business_account"].is_null())
                    shown.erase("instagram_business_account");
                data.push_back(with_fields(shown, param(params, "fields")));
            }
        return json_answer(200, {{"data", data}});
    }
    if (!edge.empty()) return missing_object("get", "me");
    const json user = s.users.value(caller.user_id, json{{"id", caller.user_id}});
    return json_answer(
        200, with_fields(user, param(params, "fields").empty() ? "name" : param(params, "fields")));
}

HttpAnswer throttled() {
    auto& s = state();
    const json throttle = s.throttle;
    s.throttle = nullptr;
    const int code = throttle.value("code", 80002);
    auto answer = graph_error(
        400,
        code == 4 ? "(#4) Application request limit reached"
                  : "There have been too many calls to this Instagram account. Wait a bit and "
                    "try again.",
        code);
    const json usage = {{"17841400000000000",
                         {{{"type", "instagram"},
                           {"call_count", 100},
                           {"total_cputime", 10},
                           {"total_time", 12},
                           {"estimated_time_to_regain_access", throttle.value("minutes", 1)}}}}};
    answer.headers.emplace_back("X-Business-Use-Case-Usage", usage.dump());
    return answer;
}

std::string token_of(const HttpRequest& request, const Params& params, const char* scheme) {
    const auto auth = request.headers.find("authorization");
    if (auth != request.headers.end() && auth->second.starts_with(scheme))
        return auth->second.substr(std::string_view(scheme).size());
    return param(params, "access_token");
}

HttpAnswer graph(const HttpRequest& request, const std::string& path, const Params& params) {
    if (!state().throttle.is_null()) return throttled();
    const auto who = caller_of(token_of(request, params, "Bearer "));
    if (const auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
    const auto& caller = std::get<Caller>(who);
    const auto slash = path.find('/');
    const std::string id = path.substr(0, slash);
    const std::string edge = slash == std::string::npos ? "" : path.substr(slash + 1);
    if (id == "me") return me(caller, edge, params);
    return object(request, caller, id, edge, params);
}

HttpAnswer upload_refused(int status, const std::string& type, const std::string& message) {
    return json_answer(
        status, {{"debug_info", {{"retriable", false}, {"type", type}, {"message", message}}}});
}

// POST /ig-api-upload/v19.0/{container-id}: a piece of a resumable container's video, starting
// at `offset` of a file of `file_size` bytes.
HttpAnswer upload(const HttpRequest& request, const std::string& id) {
    auto& s = state();
    const auto auth = request.headers.find("authorization");
    if (auth == request.headers.end() || !auth->second.starts_with("OAuth "))
        return upload_refused(401, "AuthError", "An Authorization: OAuth header is required");
    const auto who = caller_of(auth->second.substr(6));
    if (std::holds_alternative<HttpAnswer>(who))
        return upload_refused(401, "AuthError", "Invalid OAuth access token");
    if (!s.containers.contains(id) || !manages(std::get<Caller>(who), s.containers[id]["user_id"]))
        return upload_refused(400, "ProcessingFailedError", "Unknown media container " + id);
    json& container = s.containers[id];
    if (!container["resumable"].get<bool>())
        return upload_refused(400, "ProcessingFailedError",
                              "The container was not made for a resumable upload");
    const auto offset_header = request.headers.find("offset");
    const auto size_header = request.headers.find("file_size");
    if (offset_header == request.headers.end() || size_header == request.headers.end())
        return upload_refused(400, "ProcessingFailedError",
                              "The offset and file_size headers are required");
    const long long offset = std::atoll(offset_header->second.c_str());
    const long long file_size = std::atoll(size_header->second.c_str());
    const long long declared = container["file_size"];
    const auto length = static_cast<long long>(request.body.size());
    if (file_size <= 0 || (declared > 0 && file_size != declared))
        return upload_refused(400, "ProcessingFailedError", "file_size differs from the upload's");
    if (offset != container["received"].get<long long>())
        return upload_refused(400, "ProcessingFailedError",
                              "offset " + std::to_string(offset) + " is not where the upload is (" +
                                  std::to_string(container["received"].get<long long>()) + ")");
    if (length == 0 || offset + length > file_size)
        return upload_refused(400, "ProcessingFailedError",
                              "The piece does not fit in file_size bytes");
    container["file_size"] = file_size;
    container["received"] = offset + length;
    container["chunks"].push_back({{"offset", offset}, {"bytes", length}});
    return json_answer(200, {{"success", true}, {"message", "Upload successful."}});
}

HttpAnswer serve(const HttpRequest& request, const std::string& path) {
    const auto params = request.parameters();
    if (path == "/v19.0/dialog/oauth" && request.method == "GET") return consent_dialog(params);
    if (path == "/v19.0/oauth/access_token") return access_token(params);
    if (path.starts_with(kUploadPath) && request.method == "POST")
        return upload(request, path.substr(kUploadPath.size()));
    if (path.starts_with("/v19.0/")) return graph(request, path.substr(7), params);
    return invalid_parameter("Unsupported request - method type: " + request.method);
}

// oauth_client {client_id, client_secret}: the registered application. user {id, name}: a
// Facebook user. page {id, name, user_id, instagram?: {id, username, name, followers_count,
// follows_count}}: a Page the user manages and the Instagram account linked to it.
// next_consent {user_id, scopes?, deny?}: how the next consent page answers. expire {user_id}:
// the user's tokens answer 190. container_delay {polls}. container_error {status}: the next
// container ends in ERROR. throttle {code, minutes}: the next Graph call is refused as
// throttled. media {user_id, caption}: media made in the Instagram app. insights {id, ...}: the
// counts an account or media answers. comment {media_id, parent_id?, from {id, username},
// text}: a comment someone wrote (a reply to the top-level comment parent_id).
std::optional<HttpAnswer> control(const std::string& action, const json& body) {
    auto& s = state();
    if (action == "oauth_client") {
        s.client = {{"client_id", body.at("client_id")},
                    {"client_secret", body.at("client_secret")}};
    } else if (action == "user") {
        s.users[body.at("id").get<std::string>()] = {{"id", body.at("id")},
                                                     {"name", body.value("name", "")}};
    } else if (action == "page") {
        const std::string id = body.at("id");
        json page = {{"id", id},
                     {"name", body.value("name", "")},
                     {"user_id", body.at("user_id")},
                     {"instagram_business_account", nullptr}};
        if (body.contains("instagram")) {
            json account = body["instagram"];
            account["page_id"] = id;
            account["insights"] = {{"reach", 0}, {"views", 0}};
            page["instagram_business_account"] = {{"id", account.at("id")}};
            s.accounts[account.at("id").get<std::string>()] = account;
        }
        s.pages[id] = page;
    } else if (action == "next_consent") {
        s.next_consent = body;
    } else if (action == "expire") {
        for (auto& [token, record] : s.tokens.items())
            if (record["user_id"] == body.at("user_id")) record["expired"] = true;
    } else if (action == "container_delay") {
        s.container_delay = body.value("polls", 0LL);
    } else if (action == "container_error") {
        s.next_container_error = body.at("status");
    } else if (action == "throttle") {
        s.throttle = body;
    } else if (action == "media") {
        return json_answer(200, store_media(body.at("user_id"), "IMAGE", "FEED",
                                            body.value("caption", ""), json::array()));
    } else if (action == "comment") {
        json* media = find_media(body.at("media_id"));
        if (!media) return json_answer(404, {{"error", "no such media"}});
        json* parent = nullptr;
        for (auto& comment : (*media)["comments"])
            if (comment["id"] == body.value("parent_id", "")) parent = &comment;
        return json_answer(200, store_comment(*media, body.at("from"), body.at("text"), parent));
    } else if (action == "insights") {
        const std::string id = body.at("id");
        json* target = s.accounts.contains(id) ? &s.accounts[id] : find_media(id);
        if (!target) return json_answer(404, {{"error", "no such account or media"}});
        for (const auto& [name, value] : body.items()) {
            if (name == "id") continue;
            if (name == "like_count" || name == "comments_count" || name == "followers_count" ||
                name == "follows_count")
                (*target)[name] = value;
            else
                (*target)["insights"][name] = value;
        }
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
    return state().media;
}

constexpr FakePlatform kFake{"instagram", &serve,    &control,
                             &revoke,     &messages, &reset_state<State>};
const FakeRegistration kRegistration(kFake);

}  // namespace

State& state() {
    return fake_state<State>();
}

std::string new_id() {
    return std::to_string(kIdBase + next_message_id());
}

std::string param(const Params& params, const std::string& name) {
    const auto found = params.find(name);
    return found == params.end() ? std::string() : found->second;
}

HttpAnswer graph_error(int status, const std::string& message, int code, int subcode,
                       const std::string& type) {
    json error = {{"message", message}, {"type", type}, {"code", code}, {"fbtrace_id", "AIgFaKe"}};
    if (subcode != 0) error["error_subcode"] = subcode;
    return json_answer(status, {{"error", error}});
}

HttpAnswer invalid_parameter(const std::string& message) {
    return graph_error(400, message, 100);
}

}  // namespace squawk::fakes::platforms::instagram
