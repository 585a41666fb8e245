// The fake Bluesky PDS: XRPC under /xrpc/ (createSession, uploadBlob, createRecord, deleteRecord,
// getAuthorFeed) with bearer sessions opened by app passwords, app.bsky.feed.post records checked
// as the PDS checks them (300 graphemes, facet ranges, up to 4 uploaded images of 1 MB), XRPC's
// {error, message} errors, and 429 answers with Bluesky's RateLimit-* headers.
#include "tests/fakes/platforms/fake_platform.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <variant>

namespace squawk::fakes::platforms::bluesky {
namespace {

using nlohmann::json;

constexpr std::string_view kPosts = "app.bsky.feed.post";
constexpr long long kMaxImageBytes = 1'000'000;

struct State {
    json accounts = json::array();  // {did, handle, email, display_name, app_passwords[]}
    // access token -> {did, app_password}: the account and the app password that opened it.
    json sessions = json::object();
    json blobs = json::object();  // cid -> {did, mimeType, size}
    json posts = json::object();  // did -> [{uri, cid, value, indexedAt}], oldest first
    // method (NSID) -> the ratelimit-reset (Unix seconds) its next call is refused until.
    std::map<std::string, long long> rate_limited;
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

long long unix_now() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// The atproto datetime form: 2026-11-23T10:00:00.000Z.
std::string datetime_now() {
    const auto now = std::chrono::system_clock::now();
    const auto millis =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() %
        1000;
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[64];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03lldZ", utc.tm_year + 1900,
                  utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                  static_cast<long long>(millis));
    return text;
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
    const std::string id = std::to_string(next_message_id());
    const std::string access = "access-" + id;
    state().sessions[access] = {{"did", account->at("did")}, {"app_password", password}};
    json out = {{"did", account->at("did")},
                {"handle", account->at("handle")},
                {"accessJwt", access},
                {"refreshJwt", "refresh-" + id},
                {"active", true}};
    if (account->contains("email")) out["email"] = account->at("email");
    return json_answer(200, out);
}

// The DID the request's bearer token speaks for, or the 401 XRPC answers without one.
std::variant<std::string, HttpAnswer> authenticated(const HttpRequest& request) {
    const auto auth = request.headers.find("authorization");
    if (auth == request.headers.end() || !auth->second.starts_with("Bearer "))
        return error(401, "AuthenticationRequired", "Authentication Required");
    const auto token = auth->second.substr(7);
    if (!state().sessions.contains(token))
        return error(401, "InvalidToken", "Token could not be verified");
    return state().sessions[token]["did"].get<std::string>();
}

HttpAnswer upload_blob(const HttpRequest& request, const std::string& did) {
    if (request.body.empty()) return invalid("Request body is required");
    const auto type = request.headers.find("content-type");
    const std::string cid = "bafkreiblob" + std::to_string(next_message_id());
    const json blob = {{"$type", "blob"},
                       {"ref", {{"$link", cid}}},
                       {"mimeType", type == request.headers.end() ? "*/*" : type->second},
                       {"size", request.body.size()}};
    state().blobs[cid] = {{"did", did}, {"mimeType", blob["mimeType"]}, {"size", blob["size"]}};
    return json_answer(200, {{"blob", blob}});
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
    }
    if (!record.contains("embed")) return std::nullopt;
    const json& embed = record["embed"];
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
        const auto& blobs = state().blobs;
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
                   {"indexedAt", datetime_now()}};
    state().posts[did].push_back(stored);
    return stored;
}

// The repo a write names must be the authenticated account, by DID or handle.
bool own_repo(const json& body, const std::string& did) {
    if (!body.is_object() || !body.contains("repo") || !body["repo"].is_string()) return false;
    const json* account = find_account(body["repo"].get<std::string>());
    return account && account->at("did") == did;
}

HttpAnswer create_record(const json& body, const std::string& did) {
    if (!own_repo(body, did)) return invalid("Input/repo must be the authenticated account");
    if (body.value("collection", "") != kPosts)
        return invalid("This PDS fake stores only app.bsky.feed.post records");
    if (const auto problem = post_problem(body.value("record", json()), did))
        return invalid(*problem);
    const json stored = store_post(did, body["record"]);
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

HttpAnswer rate_limited(long long reset) {
    HttpAnswer answer = error(429, "RateLimitExceeded", "Rate Limit Exceeded");
    answer.headers = {{"RateLimit-Limit", "30"},
                      {"RateLimit-Remaining", "0"},
                      {"RateLimit-Reset", std::to_string(reset)},
                      {"RateLimit-Policy", "30;w=300"}};
    return answer;
}

HttpAnswer serve(const HttpRequest& request, const std::string& path) {
    if (!path.starts_with("/xrpc/")) return error(404, "NotFound", "Not Found");
    const std::string method = path.substr(6);
    auto& s = state();
    if (const auto limited = s.rate_limited.find(method); limited != s.rate_limited.end()) {
        const long long reset = limited->second;
        s.rate_limited.erase(limited);
        return rate_limited(reset);
    }
    const bool query = method == "app.bsky.feed.getAuthorFeed";
    if (request.method != (query ? "GET" : "POST"))
        return invalid("Incorrect HTTP method (" + request.method + ") expected " +
                       (query ? "GET" : "POST"));
    const json body = request.body.empty() || method == "com.atproto.repo.uploadBlob"
                          ? json::object()
                          : json::parse(request.body, nullptr, false);
    if (method == "com.atproto.server.createSession") return create_session(body);
    const auto who = authenticated(request);
    if (const auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
    const auto& did = std::get<std::string>(who);
    if (method == "com.atproto.repo.uploadBlob") return upload_blob(request, did);
    if (method == "com.atproto.repo.createRecord") return create_record(body, did);
    if (method == "com.atproto.repo.deleteRecord") return delete_record(body, did);
    if (query) return author_feed(request);
    return error(501, "MethodNotImplemented", "Method Not Implemented");
}

// account {did, handle, app_password, email?, display_name?} (another app password for a DID
// already known adds to it); rate_limit {method, reset_in}: the next call of that method answers
// 429 until reset_in seconds from now; post {did, text}: a post made in the Bluesky app.
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
        }
        (*account)["app_passwords"].push_back(body.at("app_password"));
    } else if (action == "rate_limit") {
        s.rate_limited[body.at("method").get<std::string>()] =
            unix_now() + body.value("reset_in", 60LL);
    } else if (action == "post") {
        return json_answer(
            200, store_post(body.at("did").get<std::string>(), {{"$type", kPosts},
                                                                {"text", body.at("text")},
                                                                {"createdAt", datetime_now()}}));
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
    for (auto it = s.sessions.begin(); it != s.sessions.end();)
        it = (*it)["app_password"] == token ? s.sessions.erase(it) : std::next(it);
}

json messages() {
    return state().posts;
}

constexpr FakePlatform kFake{"bluesky", &serve, &control, &revoke, &messages, &reset_state<State>};
const FakeRegistration kRegistration(kFake);

}  // namespace
}  // namespace squawk::fakes::platforms::bluesky
