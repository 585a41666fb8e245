// What the fake social platforms share: one fake platform's interface (its API under /<name>/ and
// its part of the control API), the list of them, programmed failures and the record of calls.
#pragma once

#include "tests/fakes/loopback_http.hpp"

#include <nlohmann/json.hpp>

#include <deque>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace squawk::fakes::platforms {

// One platform of the fake. Its state lives in its own folder; the shared main routes to it.
struct FakePlatform {
    std::string_view name;  // serves /<name>/... and controls /_control/<name>/<action>
    // A call under /<name>, that prefix stripped.
    HttpAnswer (*serve)(const HttpRequest& request, const std::string& path);
    // POST /_control/<name>/<action> with its JSON object body; nullopt for an unknown action.
    std::optional<HttpAnswer> (*control)(const std::string& action, const nlohmann::json& body);
    // The token stops working wherever it worked (/_control/revoke).
    void (*revoke)(const std::string& token);
    // The messages on the platform now, for GET /_control/messages; null when it keeps none.
    nlohmann::json (*messages)();
    // Forget everything (/_control/reset): reset_state<its State>.
    void (*reset)();
};

// A platform's state, one per State type, and its reset.
template <class State>
State& fake_state() {
    static State state;
    return state;
}

template <class State>
void reset_state() {
    fake_state<State>() = State();
}

// Every fake platform linked into the fake, in no particular order.
std::span<const FakePlatform* const> fake_platforms();

// A platform's fake joins the list by defining one of these at namespace scope in its folder, so
// adding a platform to the fake touches no shared file (the fake is one executable, so no linker
// drops an object that nothing names).
struct FakeRegistration {
    explicit FakeRegistration(const FakePlatform& platform);
};

// Programmed answers and the record of calls, across platforms.
struct Record {
    // Programmed answers consumed in order by calls whose path contains the key.
    std::map<std::string, std::deque<nlohmann::json>> programs;
    nlohmann::json calls = nlohmann::json::array();
    long long last_message_id = 1000;
    // name -> {content type, bytes} of files the media host serves as they are.
    std::map<std::string, std::pair<std::string, std::string>> media_files;
    // Posts the platforms' APIs brought into being, in the order they became visible:
    // {platform, text, received_at_ms}, the time of the call that published each (publish_log()).
    nlohmann::json publishes = nlohmann::json::array();
};

Record& record();
// A new message id, unique across the platforms of the fake.
long long next_message_id();
// Called by a platform's API where a post becomes visible on it (for a two-step publish, the
// second step), with its text: GET /_control/publishes lists them across platforms, so a
// benchmark reads when every platform received each post's publishing call the same way. A
// platform that processes a post after that call (TikTok) logs it once it is visible, with the
// time the call was received.
void publish_log(std::string_view platform, const std::string& text,
                 std::optional<long long> received_at_ms = std::nullopt);

// An answer from a JSON body.
HttpAnswer json_answer(int status, const nlohmann::json& body);
// The programmed answer for `request`, if one is waiting. {"delay_ms": n} alone delays the
// normal answer; with "status" it replaces it; "reset" drops the connection.
std::optional<nlohmann::json> take_program(const HttpRequest& request);

// A multipart/form-data body: its text fields, and its files by part name as {name, filename,
// content_type, bytes} (the size; the content is not kept).
struct Form {
    std::map<std::string, std::string> fields;
    nlohmann::json files = nlohmann::json::object();
};
// The form `request` carries; nothing unless it is well-formed multipart/form-data.
std::optional<Form> parse_form(const HttpRequest& request);

// The fake media host under /media/ (media_host.cpp).
HttpAnswer media(const HttpRequest& request);
// POST /_control/media/file {name, content_type, path}: /media/<name> serves the bytes of the file
// at `path` on this machine (a real video for the transcoding path) instead of generated ones.
HttpAnswer store_media_file(const nlohmann::json& body);

}  // namespace squawk::fakes::platforms
