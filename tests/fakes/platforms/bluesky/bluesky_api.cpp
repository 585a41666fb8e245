// The fake Bluesky PDS: XRPC under /xrpc/ (createSession, refreshSession, resolveHandle,
// getProfile with follower counts, uploadBlob, createRecord, deleteRecord, getAuthorFeed, getPosts
// with engagement counts) with bearer sessions opened by
// app passwords, access tokens that expire (ExpiredToken) and refresh tokens that rotate,
// app.bsky.feed.post records checked as the PDS checks them (300 graphemes, facet ranges, mentions
// of existing accounts, up to 4 uploaded images of 1 MB, one video blob of 100 MB or one external
// link card), XRPC's {error, message} errors, and 429 answers with Bluesky's RateLimit-* headers.
// getServiceAuth issues service tokens for the video service, served under /_upload/xrpc/
// (app.bsky.video.uploadVideo, getJobStatus): a job encodes the file, stores it on the PDS as a
// blob of the token's account, and a file encoded before ends in already_exists with its blob.
// Replies name their thread's root and parent by uri and cid; getPostThread shows a post's replies
// with the threadgate (putRecord, getRecord) that hides some; likes count on the post liked.
// Web pages for link cards are served under /_pages/<name>.
#include "tests/fakes/platforms/fake_clock.hpp"
#include "tests/fakes/platforms/fake_platform.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <random>
#include <utility>
#include <variant>

namespace squawk::fakes::platforms::bluesky {
namespace {

using nlohmann::json;

constexpr std::string_view kPosts = "app.bsky.feed.post";
constexpr long long kMaxImageBytes = 1'000'000;
constexpr long long kMaxVideoBytes = 100'000'000;

// A web page for link cards: its HTML, or where it redirects.
struct Page {
    std::string html;
    std::string content_type;
    std::string redirect_to;
};

struct State {
    json accounts = json::array();  // {did, handle, email, display_name, app_passwords[]}
    // access token -> {did, app_password, expired}: the account and the app password that opened
    // it, and whether it has expired.
    json sessions = json::object();
    json refresh_tokens = json::object();  // refresh token -> {did, app_password, expired}
    std::map<std::string, Page> pages;
    json blobs = json::object();        // cid -> {did, mimeType, size}
    json posts = json::object();        // did -> [{uri, cid, value, indexedAt}], oldest first
    json threadgates = json::object();  // root post uri -> {uri, cid, value}
    json likes = json::array();         // {did, subject}
    // method (NSID) -> the ratelimit-reset (Unix seconds) its next call is refused until.
    std::map<std::string, long long> rate_limited;
    json service_tokens = json::object();  // token -> {did, aud, lxm, exp}
    // jobId -> {did, state, blob?, error?, message?, polls_left}
    json video_jobs = json::object();
    std::map<std::string, std::string> encoded;  // a file's digest -> the blob cid it became
    int encoding_polls = 0;   // how many getJobStatus answers show a new job encoding
    json next_video_refusal;  // {error, message} the next job fails with; null for none
};

State& state() {
    return fake_state<State>();
}

HttpAnswer error(int status, const std::string& name, const std::string& message) {
    return json_answer(status, {{"error", name}, {"message", message}});
}

HttpAnswer invalid(const std::string& message) {
    return error(400, "InvalidRequest", message);
}

// Code points, which stand in for graphemes as the connector's limit counts them.
size_t graphemes(const std::string& text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

std::string lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// The account a handle, DID or e-mail address names.
json* find_account(const std::string& identifier) {
    for (auto& account : state().accounts)
        if (account["did"] == identifier || account["handle"] == lower(identifier) ||
            account.value("email", "") == lower(identifier))
            return &account;
    return nullptr;
}

// A token no other fake run issued: a connector keeps sessions for its process, across fakes.
std::string new_token(const std::string& kind) {
    static std::mt19937_64 generator{std::random_device{}()};
    char suffix[17];
    std::snprintf(suffix, sizeof suffix, "%016llx", static_cast<unsigned long long>(generator()));
    return kind + "-" + std::to_string(next_message_id()) + "-" + suffix;
}

// A new pair of tokens for `account`, opened by `app_password`: the session's output.
json issue_session(const json& account, const json& app_password) {
    const std::string access = new_token("access");
    const std::string refresh = new_token("refresh");
    const json opened = {
        {"did", account.at("did")}, {"app_password", app_password}, {"expired", false}};
    state().sessions[access] = opened;
    state().refresh_tokens[refresh] = opened;
    json out = {{"did", account.at("did")},
                {"handle", account.at("handle")},
                {"accessJwt", access},
                {"refreshJwt", refresh},
                {"active", true}};
    if (account.contains("email")) out["email"] = account.at("email");
    return out;
}

// The bearer token of a request; "" when it has none.
std::string bearer_token(const HttpRequest& request) {
    const auto auth = request.headers.find("authorization");
    if (auth == request.headers.end() || !auth->second.starts_with("Bearer ")) return "";
    return auth->second.substr(7);
}

HttpAnswer create_session(const json& body) {
    if (!body.is_object() || !body.contains("identifier") || !body["identifier"].is_string())
        return invalid("Input must have the property \"identifier\"");
    if (!body.contains("password") || !body["password"].is_string())
        return invalid("Input must have the property \"password\"");
    const json* account = find_account(body["identifier"].get<std::string>());
    const auto& password = body["password"];
    if (!account ||
        std::find(account->at("app_passwords").begin(), account->at("app_passwords").end(),
                  password) == account->at("app_passwords").end())
        return error(401, "AuthenticationRequired", "Invalid identifier or password");
    return json_answer(200, issue_session(*account, password));
}

// The refresh token is the bearer and is used up: the answer carries a new pair.
HttpAnswer refresh_session(const HttpRequest& request) {
    auto& s = state();
    const std::string token = bearer_token(request);
    if (token.empty()) return error(401, "AuthenticationRequired", "Authentication Required");
    if (s.sessions.contains(token)) return error(400, "InvalidToken", "Invalid token type");
    if (!s.refresh_tokens.contains(token))
        return error(400, "ExpiredToken", "Token has been revoked");
    const json opened = s.refresh_tokens[token];
    if (opened["expired"].get<bool>()) return error(400, "ExpiredToken", "Token has expired");
    s.refresh_tokens.erase(token);
    const json* account = find_account(opened["did"].get<std::string>());
    if (!account) return error(400, "AccountNotFound", "Account not found");
    return json_answer(200, issue_session(*account, opened["app_password"]));
}

// The DID the request's bearer token speaks for, or the answer XRPC gives without one: 401 for
// no token or an unknown one, 400 ExpiredToken for an expired one.
std::variant<std::string, HttpAnswer> authenticated(const HttpRequest& request) {
    const std::string token = bearer_token(request);
    if (token.empty()) return error(401, "AuthenticationRequired", "Authentication Required");
    auto& sessions = state().sessions;
    if (state().refresh_tokens.contains(token))
        return error(400, "InvalidToken", "Invalid token type");
    if (!sessions.contains(token)) return error(401, "InvalidToken", "Token could not be verified");
    if (sessions[token]["expired"].get<bool>())
        return error(400, "ExpiredToken", "Token has expired");
    return sessions[token]["did"].get<std::string>();
}

// Unauthenticated, as on the PDS: the DID of a handle, or 400 when none has it.
HttpAnswer resolve_handle(const HttpRequest& request) {
    const std::string handle = request.query("handle");
    if (handle.empty()) return invalid("Error: Params must have the property \"handle\"");
    for (const auto& account : state().accounts)
        if (account["handle"] == lower(handle)) return json_answer(200, {{"did", account["did"]}});
    return invalid("Unable to resolve handle");
}

json profile_of(const json& account) {
    json profile = {
        {"did", account.at("did")},
        {"handle", account.at("handle")},
        {"followersCount", account.value("followers", 0)},
        {"followsCount", account.value("follows", 0)},
        {"postsCount",
         state().posts.value(account.at("did").get<std::string>(), json::array()).size()}};
    // The AppView leaves displayName out when the profile sets none.
    if (!account.value("display_name", "").empty())
        profile["displayName"] = account["display_name"];
    return profile;
}

HttpAnswer get_profile(const HttpRequest& request) {
    const json* account = find_account(request.query("actor"));
    if (!account) return invalid("Profile not found");
    return json_answer(200, profile_of(*account));
}

// A blob of `did` stored on the PDS, as uploadBlob's output names it.
json store_blob(const std::string& did, const std::string& mime_type, size_t size) {
    const std::string cid = "bafkreiblob" + std::to_string(next_message_id());
    state().blobs[cid] = {{"did", did}, {"mimeType", mime_type}, {"size", size}};
    return {{"$type", "blob"}, {"ref", {{"$link", cid}}}, {"mimeType", mime_type}, {"size", size}};
}

json blob_of(const std::string& cid) {
    const json& stored = state().blobs.at(cid);
    return {{"$type", "blob"},
            {"ref", {{"$link", cid}}},
            {"mimeType", stored["mimeType"]},
            {"size", stored["size"]}};
}

HttpAnswer upload_blob(const HttpRequest& request, const std::string& did) {
    if (request.body.empty()) return invalid("Request body is required");
    const auto type = request.headers.find("content-type");
    return json_answer(
        200, {{"blob", store_blob(did, type == request.headers.end() ? "*/*" : type->second,
                                  request.body.size())}});
}

// A token for another service to act for the account: aud must be this PDS's did:web (its
// host, a port as %3A), exp at most an hour ahead.
HttpAnswer service_auth(const HttpRequest& request, const std::string& did) {
    const auto host = request.headers.find("host");
    std::string own = "did:web:" + (host == request.headers.end() ? "" : host->second);
    if (const auto colon = own.find(':', 8); colon != std::string::npos)
        own.replace(colon, 1, "%3A");
    const std::string aud = url_decode(request.query("aud"));
    if (aud.empty()) return invalid("Error: Params must have the property \"aud\"");
    if (aud != own) return invalid("aud must be this PDS (" + own + "), not " + aud);
    const long long exp =
        request.query("exp").empty() ? unix_now() + 60 : std::atoll(request.query("exp").c_str());
    if (exp <= unix_now() || exp > unix_now() + 3600)
        return invalid("BadExpiration: expiration must be within the next hour");
    const std::string token = new_token("service");
    state().service_tokens[token] = {
        {"did", did}, {"aud", aud}, {"lxm", url_decode(request.query("lxm"))}, {"exp", exp}};
    return json_answer(200, {{"token", token}});
}

// The stored post of `uri`, or nullptr.
json* find_post(const std::string& uri) {
    for (auto& [did, posts] : state().posts.items())
        for (auto& post : posts)
            if (post["uri"] == uri) return &post;
    return nullptr;
}

// Why a {uri, cid} reference names no stored post, if it does not (the AppView drops such replies
// and likes).
std::optional<std::string> reference_problem(const json& ref, const std::string& name) {
    if (!ref.is_object() || !ref.contains("uri") || !ref["uri"].is_string() ||
        !ref.contains("cid") || !ref["cid"].is_string())
        return "Record/" + name + " must have the properties \"uri\" and \"cid\"";
    const json* post = find_post(ref["uri"].get<std::string>());
    if (!post || (*post)["cid"] != ref["cid"]) return "Record/" + name + " names no post";
    return std::nullopt;
}

// Why a facet feature is invalid, if it is: a link needs a uri, a mention the DID of an account
// (a handle in its place, or a made-up DID, would link to nobody).
std::optional<std::string> feature_problem(const json& feature) {
    const std::string type = feature.value("$type", "");
    if (type == "app.bsky.richtext.facet#link") {
        if (!feature.contains("uri") || !feature["uri"].is_string() ||
            feature["uri"].get<std::string>().empty())
            return "Record/facets/features/uri must be a uri";
    } else if (type == "app.bsky.richtext.facet#mention") {
        const std::string did = feature.value("did", "");
        if (!did.starts_with("did:")) return "Record/facets/features/did must be a did";
        if (!find_account(did)) return "Record/facets/features/did names no account: " + did;
    } else if (type != "app.bsky.richtext.facet#tag") {
        return "Record/facets/features has an unsupported type";
    }
    return std::nullopt;
}

// Why the PDS refuses `record` as an app.bsky.feed.post of `did`, if it does.
std::optional<std::string> post_problem(const json& record, const std::string& did) {
    const std::string invalid_post = "Invalid app.bsky.feed.post record: ";
    if (!record.is_object() || record.value("$type", "") != kPosts)
        return "Invalid $type: expected app.bsky.feed.post";
    if (!record.contains("text") || !record["text"].is_string())
        return invalid_post + "Record must have the property \"text\"";
    if (!record.contains("createdAt") || !record["createdAt"].is_string())
        return invalid_post + "Record must have the property \"createdAt\"";
    if (record.contains("reply")) {
        const json reply = record["reply"];
        for (const char* ref : {"root", "parent"})
            if (auto problem =
                    reference_problem(reply.value(ref, json()), std::string("reply/") + ref))
                return invalid_post + *problem;
    }
    const std::string text = record["text"];
    if (graphemes(text) > 300 || text.size() > 3000)
        return invalid_post + "Record/text must not be longer than 300 graphemes";
    for (const auto& facet : record.value("facets", json::array())) {
        const json index = facet.value("index", json::object());
        const auto start = index.value("byteStart", -1LL);
        const auto end = index.value("byteEnd", -1LL);
        if (start < 0 || end < start || end > static_cast<long long>(text.size()) ||
            facet.value("features", json::array()).empty())
            return invalid_post + "Record/facets has an invalid facet";
        for (const auto& feature : facet["features"])
            if (const auto problem = feature_problem(feature)) return invalid_post + *problem;
    }
    if (!record.contains("embed")) return std::nullopt;
    const json& embed = record["embed"];
    if (embed.value("$type", "") == "app.bsky.embed.external") {
        const json external = embed.value("external", json::object());
        for (const char* name : {"uri", "title", "description"})
            if (!external.contains(name) || !external[name].is_string())
                return invalid_post + "Record/embed/external must have the property \"" + name +
                       "\"";
        if (!external["uri"].get<std::string>().starts_with("http"))
            return invalid_post + "Record/embed/external/uri must be a uri";
        return std::nullopt;
    }
    const auto& blobs = state().blobs;
    if (embed.value("$type", "") == "app.bsky.embed.video") {
        const std::string cid =
            embed.value("video", json::object()).value("ref", json::object()).value("$link", "");
        if (!blobs.contains(cid) || blobs[cid]["did"] != did) return "Could not find blob: " + cid;
        if (blobs[cid]["mimeType"] != "video/mp4")
            return invalid_post + "Record/embed/video has an unaccepted mime type";
        if (blobs[cid]["size"].get<long long>() > kMaxVideoBytes)
            return invalid_post + "Record/embed/video file too large";
        const json ratio = embed.value("aspectRatio", json::object());
        if (embed.contains("aspectRatio") &&
            (ratio.value("width", 0) < 1 || ratio.value("height", 0) < 1))
            return invalid_post +
                   "Record/embed/aspectRatio must have a width and height of 1 or more";
        if (embed.contains("alt") && !embed["alt"].is_string())
            return invalid_post + "Record/embed/alt must be a string";
        return std::nullopt;
    }
    if (embed.value("$type", "") != "app.bsky.embed.images")
        return invalid_post + "Record/embed has an unsupported type";
    const json images = embed.value("images", json::array());
    if (images.empty() || images.size() > 4)
        return invalid_post + "Record/embed/images must have 1 to 4 images";
    for (const auto& image : images) {
        if (!image.contains("alt") || !image["alt"].is_string())
            return invalid_post + "Record/embed/images must have the property \"alt\"";
        const std::string cid =
            image.value("image", json::object()).value("ref", json::object()).value("$link", "");
        if (!blobs.contains(cid) || blobs[cid]["did"] != did) return "Could not find blob: " + cid;
        if (blobs[cid]["size"].get<long long>() > kMaxImageBytes)
            return invalid_post + "Record/embed/images/image file too large";
        if (!blobs[cid]["mimeType"].get<std::string>().starts_with("image/"))
            return invalid_post + "Record/embed/images/image has an unaccepted mime type";
    }
    return std::nullopt;
}

json store_post(const std::string& did, const json& record) {
    const std::string id = std::to_string(next_message_id());
    const std::string rkey = "3lbsky" + std::string(7 - std::min<size_t>(7, id.size()), '0') + id;
    json stored = {{"uri", "at://" + did + "/" + std::string(kPosts) + "/" + rkey},
                   {"cid", "bafyreipost" + id},
                   {"value", record},
                   {"indexedAt", utc_now(3, "Z")}};
    state().posts[did].push_back(stored);
    return stored;
}

// The repo a write names must be the authenticated account, by DID or handle.
bool own_repo(const json& body, const std::string& did) {
    if (!body.is_object() || !body.contains("repo") || !body["repo"].is_string()) return false;
    const json* account = find_account(body["repo"].get<std::string>());
    return account && account->at("did") == did;
}

// A like of an existing post, which counts it.
HttpAnswer create_like(const json& record, const std::string& did) {
    if (auto problem = reference_problem(record.value("subject", json()), "subject"))
        return invalid("Invalid app.bsky.feed.like record: " + *problem);
    json* post = find_post(record["subject"]["uri"].get<std::string>());
    json& counts = (*post)["counts"];
    counts["likeCount"] = (counts.is_object() ? counts.value("likeCount", 0) : 0) + 1;
    state().likes.push_back({{"did", did}, {"subject", record["subject"]}});
    const std::string id = std::to_string(next_message_id());
    return json_answer(200, {{"uri", "at://" + did + "/app.bsky.feed.like/3lblike" + id},
                             {"cid", "bafyreilike" + id}});
}

HttpAnswer create_record(const json& body, const std::string& did) {
    if (!own_repo(body, did)) return invalid("Input/repo must be the authenticated account");
    if (body.value("collection", "") == "app.bsky.feed.like")
        return create_like(body.value("record", json::object()), did);
    if (body.value("collection", "") != kPosts)
        return invalid("This PDS fake stores only app.bsky.feed.post and like records");
    if (const auto problem = post_problem(body.value("record", json()), did))
        return invalid(*problem);
    const json stored = store_post(did, body["record"]);
    publish_log("bluesky", body["record"].value("text", ""));
    return json_answer(200, {{"uri", stored["uri"]},
                             {"cid", stored["cid"]},
                             {"commit", {{"cid", "bafyreicommit"}, {"rev", "3lbskyrev"}}},
                             {"validationStatus", "valid"}});
}

// Deleting a record that is not there is a no-op, as on the PDS.
HttpAnswer delete_record(const json& body, const std::string& did) {
    if (!own_repo(body, did)) return invalid("Input/repo must be the authenticated account");
    if (body.value("collection", "") != kPosts || body.value("rkey", "").empty())
        return invalid("Input must have the properties \"collection\" and \"rkey\"");
    const std::string uri =
        "at://" + did + "/" + std::string(kPosts) + "/" + body.value("rkey", "");
    auto& posts = state().posts[did];
    const auto before = posts.size();
    posts.erase(
        std::remove_if(posts.begin(), posts.end(), [&](const json& p) { return p["uri"] == uri; }),
        posts.end());
    if (posts.size() == before) return json_answer(200, json::object());
    return json_answer(200, {{"commit", {{"cid", "bafyreicommit"}, {"rev", "3lbskyrev"}}}});
}

HttpAnswer author_feed(const HttpRequest& request) {
    const json* account = find_account(request.query("actor"));
    if (!account) return invalid("Profile not found");
    int limit = 50;
    if (const auto text = request.query("limit"); !text.empty()) limit = std::atoi(text.c_str());
    if (limit < 1 || limit > 100) return invalid("limit must be between 1 and 100");
    const bool no_replies = request.query("filter") == "posts_no_replies";
    const json author = {{"did", account->at("did")},
                         {"handle", account->at("handle")},
                         {"displayName", account->value("display_name", "")}};
    json feed = json::array();
    const json& posts = state().posts.value(account->at("did").get<std::string>(), json::array());
    for (auto it = posts.rbegin(); it != posts.rend() && static_cast<int>(feed.size()) < limit;
         ++it) {
        if (no_replies && (*it)["value"].contains("reply")) continue;
        feed.push_back({{"post",
                         {{"uri", (*it)["uri"]},
                          {"cid", (*it)["cid"]},
                          {"author", author},
                          {"record", (*it)["value"]},
                          {"indexedAt", (*it)["indexedAt"]}}}});
    }
    return json_answer(200, {{"feed", feed}});
}

// A post as the AppView shows it, with its engagement counts.
json post_view(const json& post) {
    const std::string did =
        post["uri"].get<std::string>().substr(5, post["uri"].get<std::string>().find('/', 5) - 5);
    const json* account = find_account(did);
    json view = {{"uri", post["uri"]},
                 {"cid", post["cid"]},
                 {"author",
                  {{"did", did},
                   {"handle", account ? (*account)["handle"] : json(did)},
                   {"displayName", account ? (*account).value("display_name", "") : ""}}},
                 {"record", post["value"]},
                 {"indexedAt", post["indexedAt"]}};
    for (const char* count : {"replyCount", "repostCount", "likeCount", "quoteCount"})
        view[count] = post.value("counts", json::object()).value(count, 0);
    return view;
}

// The posts of `uris` (repeated parameter, at most 25) as the AppView shows them, with their
// engagement counts; a uri of no post is left out.
HttpAnswer get_posts(const HttpRequest& request) {
    std::vector<std::string> uris;
    const auto question = request.target.find('?');
    std::string_view rest =
        question == std::string::npos ? "" : std::string_view(request.target).substr(question + 1);
    while (!rest.empty()) {
        const auto item = rest.substr(0, rest.find('&'));
        rest.remove_prefix(std::min(rest.size(), item.size() + 1));
        if (item.starts_with("uris=")) uris.push_back(url_decode(item.substr(5)));
    }
    if (uris.empty()) return invalid("Error: Params must have the property \"uris\"");
    if (uris.size() > 25) return invalid("Error: uris must not have more than 25 elements");
    json out = json::array();
    for (const auto& value : uris) {
        if (const json* post = find_post(value)) out.push_back(post_view(*post));
    }
    return json_answer(200, {{"posts", out}});
}

// A threadgate lives at its root post's rkey in the root author's repo and names that post.
HttpAnswer put_record(const json& body, const std::string& did) {
    if (!own_repo(body, did)) return invalid("Input/repo must be the authenticated account");
    if (body.value("collection", "") != "app.bsky.feed.threadgate")
        return invalid("This PDS fake puts only app.bsky.feed.threadgate records");
    const json record = body.value("record", json::object());
    const std::string root =
        "at://" + did + "/" + std::string(kPosts) + "/" + body.value("rkey", "");
    if (record.value("post", "") != root || !find_post(root))
        return invalid("Invalid app.bsky.feed.threadgate record: post must be " + root);
    const json hidden = record.value("hiddenReplies", json::array());
    if (!hidden.is_array() || hidden.size() > 300)
        return invalid("Invalid app.bsky.feed.threadgate record: at most 300 hiddenReplies");
    const std::string id = std::to_string(next_message_id());
    const json stored = {
        {"uri", "at://" + did + "/app.bsky.feed.threadgate/" + body.value("rkey", "")},
        {"cid", "bafyreigate" + id},
        {"value", record}};
    state().threadgates[root] = stored;
    return json_answer(200, {{"uri", stored["uri"]}, {"cid", stored["cid"]}});
}

HttpAnswer get_record(const HttpRequest& request) {
    const json* account = find_account(url_decode(request.query("repo")));
    const std::string collection = request.query("collection");
    const std::string rkey = request.query("rkey");
    if (!account || collection != "app.bsky.feed.threadgate")
        return invalid("This PDS fake reads only app.bsky.feed.threadgate records");
    const std::string root =
        "at://" + (*account)["did"].get<std::string>() + "/" + std::string(kPosts) + "/" + rkey;
    if (!state().threadgates.contains(root))
        return error(400, "RecordNotFound",
                     "Could not locate record: at://" + (*account)["did"].get<std::string>() + "/" +
                         collection + "/" + rkey);
    return json_answer(200, state().threadgates[root]);
}

// The thread under `post` to `depth` levels of replies, oldest first at each level.
json thread_view(const json& post, int depth) {
    json view = {{"$type", "app.bsky.feed.defs#threadViewPost"}, {"post", post_view(post)}};
    if (state().threadgates.contains(post["uri"].get<std::string>()))
        view["post"]["threadgate"] = {
            {"uri", state().threadgates[post["uri"].get<std::string>()]["uri"]},
            {"cid", state().threadgates[post["uri"].get<std::string>()]["cid"]},
            {"record", state().threadgates[post["uri"].get<std::string>()]["value"]}};
    json replies = json::array();
    if (depth > 0)
        for (const auto& [did, posts] : state().posts.items())
            for (const auto& reply : posts)
                if (reply["value"]
                        .value("reply", json::object())
                        .value("parent", json::object())
                        .value("uri", "") == post["uri"])
                    replies.push_back(thread_view(reply, depth - 1));
    view["replies"] = replies;
    return view;
}

HttpAnswer post_thread(const HttpRequest& request) {
    const json* post = find_post(url_decode(request.query("uri")));
    if (!post) return error(400, "NotFound", "Post not found: " + url_decode(request.query("uri")));
    const int depth =
        request.query("depth").empty() ? 6 : std::atoi(request.query("depth").c_str());
    if (depth < 0 || depth > 1000) return invalid("depth must be between 0 and 1000");
    return json_answer(200, {{"thread", thread_view(*post, depth)}});
}

HttpAnswer rate_limited(long long reset) {
    HttpAnswer answer = error(429, "RateLimitExceeded", "Rate Limit Exceeded");
    answer.headers = {{"RateLimit-Limit", "30"},
                      {"RateLimit-Remaining", "0"},
                      {"RateLimit-Reset", std::to_string(reset)},
                      {"RateLimit-Policy", "30;w=300"}};
    return answer;
}

// GET /_pages/<name>: a page set by the "page" control action, or 404.
HttpAnswer page(const std::string& name) {
    const auto found = state().pages.find(name);
    HttpAnswer answer;
    answer.content_type = "text/html; charset=utf-8";
    if (found == state().pages.end()) {
        answer.status = 404;
        answer.body = "<html><head><title>Not Found</title></head></html>";
        return answer;
    }
    if (!found->second.redirect_to.empty()) {
        answer.status = 302;
        answer.headers = {{"Location", found->second.redirect_to}};
        return answer;
    }
    answer.body = found->second.html;
    answer.content_type = found->second.content_type;
    return answer;
}

// The video service's uploadVideo: the bearer is a service token of `did` for uploadBlob on its
// PDS; the answer is the new job's status, not wrapped.
HttpAnswer upload_video(const HttpRequest& request) {
    auto& s = state();
    const std::string token = bearer_token(request);
    if (!s.service_tokens.contains(token))
        return error(401, "AuthenticationRequired", "Could not verify the service token");
    const json granted = s.service_tokens[token];
    if (granted["exp"].get<long long>() <= unix_now())
        return error(401, "AuthenticationRequired", "The service token has expired");
    if (granted["lxm"] != "com.atproto.repo.uploadBlob")
        return error(401, "AuthenticationRequired", "The service token is not for uploadBlob");
    const std::string did = url_decode(request.query("did"));
    if (did != granted["did"]) return invalid("did must be the account the token speaks for");
    const auto type = request.headers.find("content-type");
    if (type == request.headers.end() || !type->second.starts_with("video/"))
        return invalid("Unsupported video type");
    if (request.body.empty()) return invalid("Request body is required");
    if (static_cast<long long>(request.body.size()) > kMaxVideoBytes)
        return invalid("Video is too large");
    const std::string job_id = "job" + std::to_string(next_message_id());
    json job = {{"jobId", job_id},
                {"did", did},
                {"state", "JOB_STATE_CREATED"},
                {"polls_left", s.encoding_polls}};
    const std::string digest =
        std::to_string(std::hash<std::string>{}(request.body)) + "-" + type->second;
    if (!s.next_video_refusal.is_null()) {
        job["refusal"] = std::exchange(s.next_video_refusal, nullptr);
    } else if (const auto earlier = s.encoded.find(digest); earlier != s.encoded.end()) {
        job["refusal"] = {{"error", "already_exists"}, {"message", "Video already processed"}};
        job["blob"] = blob_of(earlier->second);
    } else {
        job["blob"] = store_blob(did, "video/mp4", request.body.size());
        s.encoded[digest] = job["blob"]["ref"]["$link"];
    }
    s.video_jobs[job_id] = job;
    return json_answer(200, {{"jobId", job_id}, {"did", did}, {"state", "JOB_STATE_CREATED"}});
}

// A job encodes for `encoding_polls` answers, then ends: completed with its blob, or failed.
HttpAnswer job_status(const HttpRequest& request) {
    auto& jobs = state().video_jobs;
    const std::string job_id = request.query("jobId");
    if (!jobs.contains(job_id)) return error(404, "NotFound", "Job not found");
    json& job = jobs[job_id];
    json out = {{"jobId", job_id}, {"did", job["did"]}};
    if (job["polls_left"].get<int>() > 0) {
        job["polls_left"] = job["polls_left"].get<int>() - 1;
        out["state"] = "JOB_STATE_ENCODING";
        out["progress"] = 50;
    } else if (job.contains("refusal")) {
        out["state"] = "JOB_STATE_FAILED";
        out["error"] = job["refusal"]["error"];
        out["message"] = job["refusal"]["message"];
        if (job.contains("blob")) out["blob"] = job["blob"];
    } else {
        out["state"] = "JOB_STATE_COMPLETED";
        out["progress"] = 100;
        out["blob"] = job["blob"];
    }
    return json_answer(200, {{"jobStatus", out}});
}

HttpAnswer video_service(const HttpRequest& request, const std::string& method) {
    if (method == "app.bsky.video.uploadVideo" && request.method == "POST")
        return upload_video(request);
    if (method == "app.bsky.video.getJobStatus" && request.method == "GET")
        return job_status(request);
    return error(501, "MethodNotImplemented", "Method Not Implemented");
}

HttpAnswer serve(const HttpRequest& request, const std::string& path) {
    if (path.starts_with("/_upload/xrpc/")) return video_service(request, path.substr(14));
    if (path.starts_with("/_pages/")) return page(path.substr(8));
    if (!path.starts_with("/xrpc/")) return error(404, "NotFound", "Not Found");
    const std::string method = path.substr(6);
    auto& s = state();
    if (const auto limited = s.rate_limited.find(method); limited != s.rate_limited.end()) {
        const long long reset = limited->second;
        s.rate_limited.erase(limited);
        return rate_limited(reset);
    }
    const bool query =
        method == "app.bsky.feed.getAuthorFeed" || method == "app.bsky.feed.getPosts" ||
        method == "app.bsky.actor.getProfile" || method == "com.atproto.identity.resolveHandle" ||
        method == "com.atproto.server.getServiceAuth" || method == "app.bsky.feed.getPostThread" ||
        method == "com.atproto.repo.getRecord";
    if (request.method != (query ? "GET" : "POST"))
        return invalid("Incorrect HTTP method (" + request.method + ") expected " +
                       (query ? "GET" : "POST"));
    const json body = request.body.empty() || method == "com.atproto.repo.uploadBlob"
                          ? json::object()
                          : json::parse(request.body, nullptr, false);
    if (method == "com.atproto.server.createSession") return create_session(body);
    if (method == "com.atproto.server.refreshSession") return refresh_session(request);
    if (method == "com.atproto.identity.resolveHandle") return resolve_handle(request);
    const auto who = authenticated(request);
    if (const auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
    const auto& did = std::get<std::string>(who);
    if (method == "com.atproto.repo.uploadBlob") return upload_blob(request, did);
    if (method == "com.atproto.repo.createRecord") return create_record(body, did);
    if (method == "com.atproto.repo.deleteRecord") return delete_record(body, did);
    if (method == "com.atproto.repo.putRecord") return put_record(body, did);
    if (method == "com.atproto.repo.getRecord") return get_record(request);
    if (method == "app.bsky.feed.getPostThread") return post_thread(request);
    if (method == "com.atproto.server.getServiceAuth") return service_auth(request, did);
    if (method == "app.bsky.actor.getProfile") return get_profile(request);
    if (method == "app.bsky.feed.getAuthorFeed") return author_feed(request);
    if (method == "app.bsky.feed.getPosts") return get_posts(request);
    return error(501, "MethodNotImplemented", "Method Not Implemented");
}

// `text` (UTF-8) in ISO 8859-1, as pages in other encodings come: characters past U+00FF as '?'.
std::string latin1(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte < 0x80) {
            out += text[i];
        } else if ((byte & 0xE0) == 0xC0 && byte <= 0xC3 && i + 1 < text.size()) {
            out += static_cast<char>(((byte & 0x03) << 6) | (text[++i] & 0x3F));
        } else if ((byte & 0xC0) != 0x80) {
            out += '?';
        }
    }
    return out;
}

// account {did, handle, app_password?, email?, display_name?} (another app password for a DID
// already known adds to it, a display_name replaces its own; an account without one is someone
// to mention); rate_limit {method, reset_in}: the next call of that method answers 429 until
// reset_in seconds from now; post {did, text, reply_to?}: a post made in the Bluesky app, a reply
// to reply_to; expire_sessions {did, refresh?}: the account's access tokens (and with refresh, its
// refresh tokens) expire; page {name, html, content_type?, encoding?} (encoding "latin1" serves the
// html's bytes in ISO 8859-1) or {name, redirect_to}: GET /_pages/<name>; followers {did,
// followers, follows}: the account's profile counts; engagement {uri, likeCount?, repostCount?,
// replyCount?, quoteCount?}: people's reactions to a post; video_encoding {polls}: how many status
// answers show a new video job encoding; refuse_video {error, message}: the next video job fails
// so.
std::optional<HttpAnswer> control(const std::string& action, const json& body) {
    auto& s = state();
    if (action == "account") {
        const auto did = body.at("did").get<std::string>();
        json* account = find_account(did);
        if (!account) {
            json added = {{"did", did},
                          {"handle", lower(body.at("handle").get<std::string>())},
                          {"display_name", body.value("display_name", "")},
                          {"app_passwords", json::array()}};
            if (body.contains("email")) added["email"] = lower(body.at("email").get<std::string>());
            s.accounts.push_back(added);
            account = &s.accounts.back();
        } else if (body.contains("display_name")) {
            (*account)["display_name"] = body["display_name"];
        }
        if (body.contains("app_password"))
            (*account)["app_passwords"].push_back(body.at("app_password"));
    } else if (action == "expire_sessions") {
        const auto did = body.at("did").get<std::string>();
        for (auto& opened : s.sessions)
            if (opened["did"] == did) opened["expired"] = true;
        if (body.value("refresh", false))
            for (auto& opened : s.refresh_tokens)
                if (opened["did"] == did) opened["expired"] = true;
    } else if (action == "page") {
        const std::string html = body.value("html", "");
        s.pages[body.at("name").get<std::string>()] = Page{
            body.value("encoding", "") == "latin1" ? latin1(html) : html,
            body.value("content_type", "text/html; charset=utf-8"), body.value("redirect_to", "")};
    } else if (action == "followers") {
        json* account = find_account(body.at("did").get<std::string>());
        if (!account) return error(404, "NotFound", "no such account");
        (*account)["followers"] = body.value("followers", 0);
        (*account)["follows"] = body.value("follows", 0);
    } else if (action == "engagement") {
        for (auto& [did, posts] : s.posts.items())
            for (auto& post : posts)
                if (post["uri"] == body.at("uri"))
                    for (const auto& [name, count] : body.items())
                        if (name != "uri") post["counts"][name] = count;
    } else if (action == "video_encoding") {
        s.encoding_polls = body.at("polls").get<int>();
    } else if (action == "refuse_video") {
        s.next_video_refusal = {{"error", body.at("error")}, {"message", body.at("message")}};
    } else if (action == "rate_limit") {
        s.rate_limited[body.at("method").get<std::string>()] =
            unix_now() + body.value("reset_in", 60LL);
    } else if (action == "post") {
        json record = {
            {"$type", kPosts}, {"text", body.at("text")}, {"createdAt", utc_now(3, "Z")}};
        if (body.contains("reply_to")) {
            const json* parent = find_post(body["reply_to"].get<std::string>());
            if (!parent) return error(404, "NotFound", "no post to reply to");
            const json parent_ref = {{"uri", (*parent)["uri"]}, {"cid", (*parent)["cid"]}};
            record["reply"] = {
                {"root",
                 (*parent)["value"].value("reply", json::object()).value("root", parent_ref)},
                {"parent", parent_ref}};
        }
        return json_answer(200, store_post(body.at("did").get<std::string>(), record));
    } else {
        return std::nullopt;
    }
    return json_answer(200, json::object());
}

// An app password revoked in the account's settings, and every session it opened.
void revoke(const std::string& token) {
    auto& s = state();
    for (auto& account : s.accounts) {
        auto& passwords = account["app_passwords"];
        passwords.erase(std::remove(passwords.begin(), passwords.end(), token), passwords.end());
    }
    for (json* tokens : {&s.sessions, &s.refresh_tokens})
        for (auto it = tokens->begin(); it != tokens->end();)
            it = (*it)["app_password"] == token ? tokens->erase(it) : std::next(it);
}

json messages() {
    return state().posts;
}

constexpr FakePlatform kFake{"bluesky", &serve, &control, &revoke, &messages, &reset_state<State>};
const FakeRegistration kRegistration(kFake);

}  // namespace
}  // namespace squawk::fakes::platforms::bluesky
