// The fake Pinterest API v5: user_account, boards, pins (create with an image URL, a carousel of
// image URLs or a processed video upload; update; delete; list; analytics), each checking the
// scopes Pinterest's reference lists and answering errors as {code, message}; a 429 carries
// x-ratelimit-* headers. OAuth is in oauth.cpp, video uploads in media.cpp.
//
// Control actions (POST /_control/pinterest/<action>): oauth_client {client_id, client_secret};
// user {id, username, business_name?, follower_count?, following_count?}; next_consent
// {user_id, scopes?, deny?}; board {user_id, name} (answers the board); expire {user_id} (the
// user's access tokens stop working, their refresh tokens still work); rate_limit {method, path,
// reset_in}; fail_processing {} (the next uploaded video fails processing); media {media_id}
// (a video upload as the fake keeps it: status, bytes, sha256 of the file); pin {user_id,
// board_id, description} (a pin made in the app); analytics {pin_id, metrics: {IMPRESSION, ...}}.
#include "tests/fakes/platforms/fake_clock.hpp"
#include "tests/fakes/platforms/pinterest/pinterest_fake.hpp"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <initializer_list>
#include <random>
#include <variant>

namespace squawk::fakes::platforms::pinterest {

using nlohmann::json;

State& state() {
    return fake_state<State>();
}

HttpAnswer error(int status, int code, const std::string& message) {
    return json_answer(status, {{"code", code}, {"message", message}});
}

std::string random_text(size_t length) {
    static constexpr std::string_view kAlphanumeric =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static std::mt19937_64 engine{std::random_device{}()};
    std::uniform_int_distribution<size_t> pick(0, kAlphanumeric.size() - 1);
    std::string out;
    for (size_t i = 0; i < length; ++i) out += kAlphanumeric[pick(engine)];
    return out;
}

std::string next_id() {
    return std::to_string(1100000000000000000LL + next_message_id());
}

bool has(const std::vector<std::string>& list, std::string_view item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

std::vector<std::string> split(std::string_view text, char separator) {
    std::vector<std::string> out;
    size_t at = 0;
    while (at < text.size()) {
        const auto end = std::min(text.find(separator, at), text.size());
        if (end > at) out.emplace_back(text.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

namespace {

// PinCreate's and PinUpdate's bounds.
constexpr size_t kMaxTitle = 100;
constexpr size_t kMaxDescription = 800;
constexpr size_t kMaxAltText = 500;
constexpr size_t kMaxLink = 2048;
// Analytics reach back 90 days at most.
constexpr long long kAnalyticsDays = 90;
constexpr std::string_view kPinMetrics[] = {"IMPRESSION",     "OUTBOUND_CLICK", "PIN_CLICK",
                                            "SAVE",           "SAVE_RATE",      "TOTAL_COMMENTS",
                                            "TOTAL_REACTIONS"};

size_t characters(const std::string& text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

bool is_id(const json& value) {
    if (!value.is_string()) return false;
    const auto text = value.get<std::string>();
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_url(const json& value) {
    if (!value.is_string()) return false;
    const auto text = value.get<std::string>();
    return text.starts_with("https://") || text.starts_with("http://");
}

// The grant the request's bearer token carries, Pinterest's 401 without one, and its 403 for a
// scope of `needed` that was not granted.
std::variant<Grant, HttpAnswer> authorized(const HttpRequest& request,
                                           std::initializer_list<std::string_view> needed) {
    const auto& tokens = state().access_tokens;
    const auto auth = request.headers.find("authorization");
    const auto token = auth == request.headers.end() || !auth->second.starts_with("Bearer ")
                           ? tokens.end()
                           : tokens.find(auth->second.substr(7));
    if (token == tokens.end()) return error(401, 2, "Authentication failed.");
    for (const auto scope : needed)
        if (!has(token->second.scopes, scope))
            return error(403, 3,
                         "Your application consumer type is not supported or the token lacks "
                         "the scope " +
                             std::string(scope) + ".");
    return token->second;
}

json account_of(const json& user) {
    json out = {{"account_type", "BUSINESS"},
                {"id", user["id"]},
                {"username", user["username"]},
                {"business_name", user.value("business_name", json())},
                {"follower_count", user.value("follower_count", 0)},
                {"following_count", user.value("following_count", 0)},
                {"profile_image", "https://i.pinimg.com/75x75_RS/fake.jpg"},
                {"website_url", ""}};
    return out;
}

// A pin as the API shows it, without what the fake keeps beside it.
json public_pin(const json& pin) {
    json out = pin;
    for (const char* kept : {"owner_id", "media_source", "analytics"}) out.erase(kept);
    return out;
}

std::string first_problem_of_fields(const json& body) {
    const auto text_field = [&](const char* name, size_t max) -> std::string {
        if (!body.contains(name) || body[name].is_null()) return "";
        if (!body[name].is_string()) return std::string(name) + " must be a string.";
        if (characters(body[name].get<std::string>()) > max)
            return std::string(name) + " must be at most " + std::to_string(max) + " characters.";
        return "";
    };
    for (const auto& problem :
         {text_field("title", kMaxTitle), text_field("description", kMaxDescription),
          text_field("alt_text", kMaxAltText), text_field("link", kMaxLink)})
        if (!problem.empty()) return problem;
    if (body.contains("link") && !body["link"].is_null() && !is_url(body["link"]))
        return "link must be an http(s) address.";
    if (body.contains("board_section_id") && !body["board_section_id"].is_null() &&
        !is_id(body["board_section_id"]))
        return "board_section_id must be an id.";
    return "";
}

// The board a pin may go to, or Pinterest's refusal.
std::optional<HttpAnswer> board_problem(const json& board_id, const Grant& grant) {
    if (!is_id(board_id)) return error(400, 1, "board_id is required and must be an id.");
    const auto& boards = state().boards;
    const auto id = board_id.get<std::string>();
    if (!boards.contains(id)) return error(404, 3, "Board not found.");
    if (boards[id]["owner_id"] != grant.user_id)
        return error(403, 29, "You are not permitted to access that resource.");
    return std::nullopt;
}

// media_source as one image URL, 2 to 5 image URLs or a processed video: the pin's media, or
// nothing when it is not one.
std::optional<json> media_of(const json& source, const Grant& grant) {
    if (!source.is_object()) return std::nullopt;
    const auto type = source.value("source_type", "");
    if (type == "image_url" && is_url(source.value("url", json())))
        return json{{"media_type", "image"}};
    if (type == "multiple_image_urls") {
        const json items = source.value("items", json());
        if (!items.is_array() || items.size() < 2 || items.size() > 5) return std::nullopt;
        for (const auto& item : items)
            if (!item.is_object() || !is_url(item.value("url", json()))) return std::nullopt;
        return json{{"media_type", "multiple_images"}, {"items", items.size()}};
    }
    if (type == "video_id" && is_id(source.value("media_id", json())) &&
        media_ready(source["media_id"].get<std::string>(), grant) &&
        (source.contains("cover_image_url") || source.contains("cover_image_key_frame_time")))
        return json{{"media_type", "video"}, {"media_id", source["media_id"]}};
    return std::nullopt;
}

json store_pin(const std::string& user_id, const json& fields, const json& media) {
    auto& s = state();
    const std::string id = next_id();
    json pin = {{"id", id},
                {"created_at", utc_now(0, "")},
                {"board_id", fields.value("board_id", json())},
                {"board_section_id", fields.value("board_section_id", json())},
                {"title", fields.value("title", json())},
                {"description", fields.value("description", json())},
                {"link", fields.value("link", json())},
                {"alt_text", fields.value("alt_text", json())},
                {"media", media},
                {"media_source", fields.value("media_source", json())},
                {"is_owner", true},
                {"owner_id", user_id},
                {"pin_metrics", json()}};
    s.pins[id] = pin;
    s.pin_order.push_back(id);
    return pin;
}

HttpAnswer create_pin(const HttpRequest& request, const Grant& grant) {
    const json body = json::parse(request.body, nullptr, false);
    if (!body.is_object()) return error(400, 1, "The request body is not a JSON object.");
    if (const auto problem = board_problem(body.value("board_id", json()), grant)) return *problem;
    if (const auto problem = first_problem_of_fields(body); !problem.empty())
        return error(400, 1, problem);
    const auto media = media_of(body.value("media_source", json()), grant);
    if (!media) return error(400, 1, "Invalid media_source.");
    publish_log("pinterest", body.value("description", body.value("title", "")));
    return json_answer(201, public_pin(store_pin(grant.user_id, body, *media)));
}

// The user's pin `id`, or Pinterest's 404 or 403.
std::variant<json*, HttpAnswer> own_pin(const std::string& id, const Grant& grant) {
    auto& pins = state().pins;
    if (!pins.contains(id)) return error(404, 50, "Pin not found.");
    if (pins[id]["owner_id"] != grant.user_id)
        return error(403, 29, "You are not permitted to access that resource.");
    return &pins[id];
}

HttpAnswer update_pin(const HttpRequest& request, const std::string& id, const Grant& grant) {
    auto found = own_pin(id, grant);
    if (auto* refusal = std::get_if<HttpAnswer>(&found)) return *refusal;
    json& pin = *std::get<json*>(found);
    const json body = json::parse(request.body, nullptr, false);
    if (!body.is_object()) return error(400, 1, "The request body is not a JSON object.");
    if (const auto problem = first_problem_of_fields(body); !problem.empty())
        return error(400, 1, problem);
    if (body.contains("board_id"))
        if (const auto problem = board_problem(body["board_id"], grant)) return *problem;
    for (const char* name :
         {"title", "description", "link", "alt_text", "board_id", "board_section_id"})
        if (body.contains(name)) pin[name] = body[name];
    return json_answer(200, public_pin(pin));
}

HttpAnswer delete_pin(const std::string& id, const Grant& grant) {
    auto found = own_pin(id, grant);
    if (auto* refusal = std::get_if<HttpAnswer>(&found)) return *refusal;
    auto& s = state();
    s.pins.erase(id);
    std::erase(s.pin_order, id);
    HttpAnswer answer;
    answer.status = 204;
    return answer;
}

HttpAnswer list_pins(const HttpRequest& request, const Grant& grant) {
    const auto size_text = request.query("page_size");
    const int page_size = size_text.empty() ? 25 : std::atoi(size_text.c_str());
    if (page_size < 1 || page_size > 250)
        return error(400, 1, "page_size must be between 1 and 250.");
    const auto& s = state();
    json items = json::array();
    for (auto it = s.pin_order.rbegin();
         it != s.pin_order.rend() && static_cast<int>(items.size()) < page_size; ++it)
        if (s.pins[*it]["owner_id"] == grant.user_id) items.push_back(public_pin(s.pins[*it]));
    return json_answer(200, {{"items", items}, {"bookmark", json()}});
}

// Days since the epoch of a YYYY-MM-DD date; nothing when it is not one.
std::optional<long long> day_number(const std::string& text) {
    std::tm tm{};
    if (text.size() != 10 || !strptime(text.c_str(), "%Y-%m-%d", &tm)) return std::nullopt;
    return static_cast<long long>(timegm(&tm)) / 86400;
}

HttpAnswer pin_analytics(const HttpRequest& request, const std::string& id, const Grant& grant) {
    const auto start = day_number(url_decode(request.query("start_date")));
    const auto end = day_number(url_decode(request.query("end_date")));
    const long long today = unix_now() / 86400;
    if (!start || !end || *end < *start || *start < today - kAnalyticsDays || *end > today)
        return error(400, 400, "Invalid pins analytics parameters.");
    const auto metrics = split(url_decode(request.query("metric_types")), ',');
    if (metrics.empty()) return error(400, 400, "Invalid pins analytics parameters.");
    for (const auto& metric : metrics)
        if (std::find(std::begin(kPinMetrics), std::end(kPinMetrics), metric) ==
            std::end(kPinMetrics))
            return error(400, 400, "Invalid pins analytics parameters.");
    auto found = own_pin(id, grant);
    if (auto* refusal = std::get_if<HttpAnswer>(&found)) return *refusal;
    const json& counts = (*std::get<json*>(found)).value("analytics", json::object());
    json summary = json::object();
    for (const auto& metric : metrics) summary[metric] = counts.value(metric, 0);
    return json_answer(200, {{"all",
                              {{"daily_metrics", json::array()},
                               {"summary_metrics", summary},
                               {"lifetime_metrics", json::object()}}}});
}

HttpAnswer get_board(const std::string& id) {
    const auto& boards = state().boards;
    if (!boards.contains(id)) return error(404, 3, "Board not found.");
    json board = boards[id];
    board.erase("owner_id");
    return json_answer(200, board);
}

HttpAnswer rate_limited(long long reset_in) {
    HttpAnswer answer = error(429, 8, "You have exceeded your rate limit. Try again later.");
    answer.headers = {{"x-ratelimit-limit", "100"},
                      {"x-ratelimit-remaining", "0"},
                      {"x-ratelimit-reset", std::to_string(reset_in)}};
    return answer;
}

// Each endpoint checks the scopes Pinterest's API reference lists for it, but boards:write: a pin
// on the user's own board writes no board.
HttpAnswer serve(const HttpRequest& request, const std::string& path) {
    auto& s = state();
    if (const auto limited = s.rate_limited.find(request.method + " " + path);
        limited != s.rate_limited.end()) {
        const long long reset_in = limited->second;
        s.rate_limited.erase(limited);
        return rate_limited(reset_in);
    }
    const auto& method = request.method;
    if (method == "GET" && path == "/oauth/") return consent(request);
    if (method == "POST" && path == "/v5/oauth/token") return token(request);
    if (method == "POST" && path == "/upload/") return upload(request);
    const auto call = [&](std::initializer_list<std::string_view> needed, auto&& handler) {
        auto who = authorized(request, needed);
        if (auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
        return handler(std::get<Grant>(who));
    };
    constexpr std::string_view kPins = "/v5/pins/";
    constexpr std::string_view kBoards = "/v5/boards/";
    constexpr std::string_view kMedia = "/v5/media/";
    if (method == "GET" && path == "/v5/user_account")
        return call({"user_accounts:read"}, [&](const Grant& grant) {
            return json_answer(200, account_of(s.users[grant.user_id]));
        });
    if (method == "GET" && path.starts_with(kBoards))
        return call({"boards:read"},
                    [&](const Grant&) { return get_board(path.substr(kBoards.size())); });
    if (method == "POST" && path == "/v5/media")
        return call({"pins:write"},
                    [&](const Grant& grant) { return register_media(request, grant); });
    if (method == "GET" && path.starts_with(kMedia))
        return call({"pins:read"}, [&](const Grant& grant) {
            return media_status(path.substr(kMedia.size()), grant);
        });
    if (method == "POST" && path == "/v5/pins")
        return call({"boards:read", "pins:read", "pins:write"},
                    [&](const Grant& grant) { return create_pin(request, grant); });
    if (method == "GET" && path == "/v5/pins")
        return call({"boards:read", "pins:read"},
                    [&](const Grant& grant) { return list_pins(request, grant); });
    if (path.starts_with(kPins)) {
        const auto rest = path.substr(kPins.size());
        if (method == "GET" && rest.ends_with("/analytics"))
            return call({"boards:read", "pins:read"}, [&](const Grant& grant) {
                return pin_analytics(request, rest.substr(0, rest.size() - 10), grant);
            });
        if (method == "PATCH")
            return call({"boards:read", "pins:read", "pins:write"},
                        [&](const Grant& grant) { return update_pin(request, rest, grant); });
        if (method == "DELETE")
            return call({"boards:read", "pins:read", "pins:write"},
                        [&](const Grant& grant) { return delete_pin(rest, grant); });
    }
    return error(404, 404, "Not found.");
}

std::optional<HttpAnswer> control(const std::string& action, const json& body) {
    auto& s = state();
    if (action == "oauth_client") {
        s.client_id = body.at("client_id").get<std::string>();
        s.client_secret = body.at("client_secret").get<std::string>();
    } else if (action == "user") {
        s.users[body.at("id").get<std::string>()] = body;
    } else if (action == "next_consent") {
        s.next_consent = body;
    } else if (action == "board") {
        const auto user_id = body.at("user_id").get<std::string>();
        const std::string id = next_id();
        s.boards[id] = {{"id", id},
                        {"name", body.at("name")},
                        {"privacy", "PUBLIC"},
                        {"owner_id", user_id},
                        {"owner", {{"username", s.users[user_id]["username"]}}}};
        return get_board(id);
    } else if (action == "expire") {
        const auto user_id = body.at("user_id").get<std::string>();
        std::erase_if(s.access_tokens,
                      [&](const auto& token) { return token.second.user_id == user_id; });
    } else if (action == "rate_limit") {
        s.rate_limited[body.at("method").get<std::string>() + " " +
                       body.at("path").get<std::string>()] = body.value("reset_in", 60LL);
    } else if (action == "fail_processing") {
        s.fail_next_processing = true;
    } else if (action == "media") {
        const auto id = body.at("media_id").get<std::string>();
        if (!s.media.contains(id)) return error(404, 4, "Media upload not found.");
        return json_answer(200, s.media[id]);
    } else if (action == "pin") {
        json fields = {{"board_id", body.at("board_id")}, {"description", body.at("description")}};
        return json_answer(200, public_pin(store_pin(body.at("user_id").get<std::string>(), fields,
                                                     {{"media_type", "image"}})));
    } else if (action == "analytics") {
        const auto id = body.at("pin_id").get<std::string>();
        if (!s.pins.contains(id)) return error(404, 50, "Pin not found.");
        s.pins[id]["analytics"] = body.at("metrics");
    } else {
        return std::nullopt;
    }
    return json_answer(200, json::object());
}

// The user revoked the app's access (an access or a refresh token).
void revoke(const std::string& token) {
    state().access_tokens.erase(token);
    state().refresh_tokens.erase(token);
}

// The pins oldest first, with the media_source each was made from and its owner_id.
json messages() {
    json out = json::array();
    for (const auto& id : state().pin_order) out.push_back(state().pins[id]);
    return out;
}

// The registered application stays: the test support registers it once, when the fake starts.
void reset() {
    State fresh;
    fresh.client_id = state().client_id;
    fresh.client_secret = state().client_secret;
    state() = std::move(fresh);
}

constexpr FakePlatform kFake{"pinterest", &serve, &control, &revoke, &messages, &reset};
const FakeRegistration kRegistration(kFake);

}  // namespace
}  // namespace squawk::fakes::platforms::pinterest
