#include "common/extensions/platforms/whatsapp/connector.hpp"

#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/whatsapp/factory.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace squawk::social::whatsapp {
namespace {

using nlohmann::json;

// Graph API error codes that mean "slow down" rather than "no".
constexpr long long kThrottleCodes[] = {4, 17, 32, 613, 80007, 130429, 131048, 131056};
constexpr long long kInvalidToken = 190;

bool is_graph_id(std::string_view text) {
    return !text.empty() && text.size() <= 30 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_access_token(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
               c == '|';
    });
}

json graph_error(const json& body) {
    return body.is_object() ? body.value("error", json::object()) : json::object();
}

long long graph_error_code(const json& body) {
    const json error = graph_error(body);
    return error.is_object() && error.contains("code") && error["code"].is_number_integer()
               ? error["code"].get<long long>()
               : 0;
}

// The Graph API answers the object asked for, or {error: {message, code}} whose code may mean
// throttling under any status. Verify-only, so an answer it cannot read is a refusal.
constexpr AnswerShape kAnswers{
    .speaker = "the WhatsApp Cloud API",
    .accepted =
        [](long status, const json& body) {
            return status == 200 && body.is_object() && !body.contains("error");
        },
    .reason = [](const json& body) { return json_text(graph_error(body), "message"); },
    .throttled =
        [](const json& body) {
            return std::find(std::begin(kThrottleCodes), std::end(kThrottleCodes),
                             graph_error_code(body)) != std::end(kThrottleCodes);
        },
    .kind =
        [](long status) {
            return status >= 500 ? FailureKind::not_accepted : FailureKind::refused;
        },
};

Answer read(const http::Response& response) {
    auto answer = read_answer(response, kAnswers);
    if (answer.failure && graph_error_code(answer.body) == kInvalidToken)
        answer.failure->field = "access_token";
    return answer;
}

class WhatsappConnector final : public Connector {
  public:
    WhatsappConnector(const config::PlatformSettings& settings, http::Client& http)
        : Connector(kFactory), api_(settings, http) {}

    std::vector<FieldProblem> check(Credentials& credentials) const override {
        std::vector<FieldProblem> problems;
        const auto expect = [&](const char* field, bool (*valid)(std::string_view),
                                const char* shape) {
            const std::string& value = credentials[field];
            if (value.empty())
                problems.push_back({field, "is required"});
            else if (!valid(value))
                problems.push_back({field, shape});
        };
        expect("waba_id", is_graph_id, "must be a WhatsApp Business Account id (digits)");
        expect("phone_number_id", is_graph_id, "must be a phone number id (digits)");
        expect("access_token", is_access_token, "is not a Graph API access token");
        return problems;
    }

    Verification verify(const Credentials& credentials) override {
        Verification v;
        const std::string& token = credentials.at("access_token");
        const std::string& phone_id = credentials.at("phone_number_id");
        auto phone =
            read(get("/" + phone_id + "?fields=id,display_phone_number,verified_name", token));
        if (phone.failure) {
            v.failure = std::move(phone.failure);
            if (v.failure->field.empty()) v.failure->field = "phone_number_id";
            return v;
        }
        const std::string& waba_id = credentials.at("waba_id");
        auto numbers = read(get("/" + waba_id + "/phone_numbers", token));
        if (numbers.failure) {
            v.failure = std::move(numbers.failure);
            if (v.failure->field.empty()) v.failure->field = "waba_id";
            return v;
        }
        const json data = numbers.body.value("data", json::array());
        const bool listed =
            data.is_array() && std::any_of(data.begin(), data.end(), [&](const json& n) {
                return n.is_object() && n.value("id", "") == phone_id;
            });
        if (!listed) {
            v.failure = PlatformFailure{FailureKind::refused,
                                        "this phone number does not belong to the WhatsApp "
                                        "Business Account",
                                        std::nullopt, 200, "phone_number_id"};
            return v;
        }
        Identity identity;
        identity.external_id = phone_id;
        identity.display_name = phone.body.value("verified_name", "");
        identity.handle = phone.body.value("display_phone_number", "");
        if (identity.display_name.empty()) identity.display_name = identity.handle;
        v.identity = std::move(identity);
        return v;
    }

    Publication publish(const Target&, const Message&) override {
        Publication p;
        p.failure = PlatformFailure{FailureKind::refused,
                                    "WhatsApp accounts cannot publish posts: the Cloud API sends "
                                    "messages to contacts",
                                    std::nullopt, 0, ""};
        return p;
    }

  private:
    http::Response get(const std::string& path, const std::string& token) {
        return api_.send("GET", path, {{"Authorization", "Bearer " + token}});
    }

    PlatformApi api_;
};

}  // namespace

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http) {
    return std::make_unique<WhatsappConnector>(settings, http);
}

}  // namespace squawk::social::whatsapp
