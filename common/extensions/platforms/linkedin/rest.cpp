#include "common/extensions/platforms/linkedin/rest.hpp"

#include "common/core/http/form_encoding.hpp"

#include <algorithm>
#include <chrono>

namespace squawk::social::linkedin {
namespace {

using nlohmann::json;

std::string message_of(const json& body) {
    return json_text(body, "message");
}

constexpr AnswerShape kResource{
    .speaker = "LinkedIn",
    .accepted = [](long status, const json& body) { return status == 200 && body.is_object(); },
    .reason = message_of,
};

constexpr AnswerShape kCreated{
    .speaker = "LinkedIn",
    .accepted = [](long status, const json&) { return status == 201; },
    .reason = message_of,
};

constexpr AnswerShape kDone{
    .speaker = "LinkedIn",
    .accepted = [](long status, const json&) { return status / 100 == 2; },
    .reason = message_of,
};

// A 401 is the access token (invalid, expired or revoked); a 403 a permission the member did not
// grant or the application was not given, which LinkedIn names only by its internal resource.
Answer read(const http::Response& response, const AnswerShape& shape, std::string_view permission) {
    auto answer = read_answer(response, shape);
    if (!answer.failure) return answer;
    if (response.status == 401) answer.failure->field = "access_token";
    if (response.status == 403) {
        // Only this wording names the token's scopes; other 403s are about one member or object.
        if (message_of(answer.body).rfind("Not enough permissions to access:", 0) == 0)
            answer.failure->access = AccessLoss::permission_missing;
        answer.failure->reason += " (LinkedIn permission needed: " + std::string(permission) + ")";
    }
    return answer;
}

}  // namespace

http::HeaderList rest_headers(const Credentials& credentials, std::string_view restli_method) {
    auto headers = bearer(credentials);
    headers.emplace_back("LinkedIn-Version", std::string(kVersion));
    headers.emplace_back("X-Restli-Protocol-Version", "2.0.0");
    if (!restli_method.empty()) headers.emplace_back("X-RestLi-Method", std::string(restli_method));
    return headers;
}

std::string urn_segment(std::string_view urn) {
    return http::percent_encode(urn);
}

bool is_number(std::string_view text, size_t max_length) {
    return !text.empty() && text.size() <= max_length &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_post_urn(std::string_view urn) {
    for (const std::string_view prefix : {"urn:li:share:", "urn:li:ugcPost:"}) {
        if (!urn.starts_with(prefix)) continue;
        return is_number(urn.substr(prefix.size()), 20);
    }
    return false;
}

PlatformFailure not_a_post(const std::string& external_id) {
    return refusal("'" + external_id + "' is not the URN of a LinkedIn post");
}

std::optional<time::TimePoint> from_epoch_ms(const json& object, const char* name) {
    if (!object.contains(name) || !object[name].is_number_integer()) return std::nullopt;
    return time::TimePoint(std::chrono::milliseconds(object[name].get<long long>()));
}

std::string person_urn(std::string_view person_id) {
    return "urn:li:person:" + std::string(person_id);
}

Answer read_resource(const http::Response& response, std::string_view permission) {
    return read(response, kResource, permission);
}

Answer read_created(const http::Response& response, std::string_view permission) {
    return read(response, kCreated, permission);
}

Answer read_done(const http::Response& response, std::string_view permission) {
    return read(response, kDone, permission);
}

}  // namespace squawk::social::linkedin
