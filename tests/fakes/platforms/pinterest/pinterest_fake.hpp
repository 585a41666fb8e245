// The fake Pinterest's state and the parts its files share: who a token speaks for, the boards,
// pins and media uploads, and Pinterest's error shape {code, message}.
#pragma once

#include "tests/fakes/platforms/fake_platform.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::fakes::platforms::pinterest {

// What a token or a code grants: the user and the scopes they agreed to.
struct Grant {
    std::string user_id;
    std::vector<std::string> scopes;
    bool continuous_refresh = false;  // asked for at the code exchange
};

struct Code {
    Grant grant;
    std::string redirect_uri;
    std::chrono::steady_clock::time_point issued;
};

struct State {
    std::string client_id;  // the one registered application
    std::string client_secret;
    nlohmann::json users = nlohmann::json::object();  // id -> Account fields
    std::optional<nlohmann::json> next_consent;       // {user_id, scopes?, deny?}
    std::map<std::string, Code> codes;
    std::map<std::string, Grant> access_tokens;
    std::map<std::string, Grant> refresh_tokens;
    nlohmann::json boards = nlohmann::json::object();  // id -> {id, name, owner_id, owner}
    nlohmann::json pins = nlohmann::json::object();    // id -> Pin fields and owner_id
    std::vector<std::string> pin_order;                // oldest first
    // media id -> {user_id, status, upload_parameters, polls_left, fails, bytes, sha256}
    nlohmann::json media = nlohmann::json::object();
    bool fail_next_processing = false;
    // "METHOD /path" -> the seconds its next call is to wait (x-ratelimit-reset).
    std::map<std::string, long long> rate_limited;
};

State& state();

// Pinterest's error body, {code, message}, with the HTTP status.
HttpAnswer error(int status, int code, const std::string& message);
// Letters and digits, as opaque as Pinterest's tokens and codes.
std::string random_text(size_t length);
// A new id of digits, as boards, pins and media have.
std::string next_id();
bool has(const std::vector<std::string>& list, std::string_view item);
// The items of a list such as a scope ("boards:read,pins:read") or metric types.
std::vector<std::string> split(std::string_view text, char separator);

// GET /oauth/: the user's visit to the consent page. POST /v5/oauth/token.
HttpAnswer consent(const HttpRequest& request);
HttpAnswer token(const HttpRequest& request);

// POST /v5/media, GET /v5/media/{id}, and the upload host's POST /upload/.
HttpAnswer register_media(const HttpRequest& request, const Grant& grant);
HttpAnswer media_status(const std::string& id, const Grant& grant);
HttpAnswer upload(const HttpRequest& request);
// Whether media `id` is this user's and processed, ready for a pin.
bool media_ready(const std::string& id, const Grant& grant);

}  // namespace squawk::fakes::platforms::pinterest
