// The fake WhatsApp Cloud API (Graph API): phone number reads and a business account's phone
// numbers, with the Graph error object {error: {message, type, code, fbtrace_id}}.
#include "tests/fakes/platforms/fake_platform.hpp"

#include <algorithm>

namespace squawk::fakes::platforms::whatsapp {
namespace {

using nlohmann::json;

struct State {
    // id -> {id, waba_id, display_phone_number, verified_name, tokens[]}
    json phones = json::object();
};

State& state() {
    return fake_state<State>();
}

HttpAnswer graph_error(int status, const std::string& message, const std::string& type, int code) {
    return json_answer(
        status,
        {{"error",
          {{"message", message}, {"type", type}, {"code", code}, {"fbtrace_id", "AbCdEfGhIjK"}}}});
}

bool has_token(const json& phone, const std::string& token) {
    const auto& tokens = phone["tokens"];
    return std::find(tokens.begin(), tokens.end(), token) != tokens.end();
}

HttpAnswer serve(const HttpRequest& request, const std::string& path) {
    auto& s = state();
    const auto auth = request.headers.find("authorization");
    const std::string token = auth != request.headers.end() && auth->second.starts_with("Bearer ")
                                  ? auth->second.substr(7)
                                  : "";
    bool known = false;
    for (const auto& [id, phone] : s.phones.items()) known = known || has_token(phone, token);
    if (!known)
        return graph_error(401, "Invalid OAuth access token - Cannot parse access token",
                           "OAuthException", 190);
    const std::string rest = path.substr(1);
    const auto slash = rest.find('/');
    const std::string id = rest.substr(0, slash);
    const auto missing = [&] {
        return graph_error(400,
                           "Unsupported get request. Object with ID '" + id +
                               "' does not exist, cannot be loaded due to missing permissions, "
                               "or does not support this operation.",
                           "GraphMethodException", 100);
    };
    if (slash == std::string::npos) {
        if (!s.phones.contains(id) || !has_token(s.phones[id], token)) return missing();
        json out = s.phones[id];
        out.erase("tokens");
        out.erase("waba_id");
        return json_answer(200, out);
    }
    if (rest.substr(slash) == "/phone_numbers") {
        json data = json::array();
        for (const auto& [phone_id, phone] : s.phones.items()) {
            if (phone.value("waba_id", "") != id || !has_token(phone, token)) continue;
            json out = phone;
            out.erase("tokens");
            out.erase("waba_id");
            data.push_back(out);
        }
        if (data.empty()) return missing();
        return json_answer(200, {{"data", data}});
    }
    return missing();
}

// phone {phone, tokens}: a phone number of a business account and the tokens that may read it.
std::optional<HttpAnswer> control(const std::string& action, const json& body) {
    if (action != "phone") return std::nullopt;
    auto phone = body.at("phone");
    phone["tokens"] = body.value("tokens", json::array());
    state().phones[phone.at("id").get<std::string>()] = phone;
    return json_answer(200, json::object());
}

void revoke(const std::string& token) {
    for (auto& [id, phone] : state().phones.items()) {
        auto& tokens = phone["tokens"];
        tokens.erase(std::remove(tokens.begin(), tokens.end(), token), tokens.end());
    }
}

// No messages: the Cloud API keeps no feed of posts.
constexpr FakePlatform kFake{"whatsapp", &serve, &control, &revoke, nullptr, &reset_state<State>};
const FakeRegistration kRegistration(kFake);

}  // namespace
}  // namespace squawk::fakes::platforms::whatsapp
