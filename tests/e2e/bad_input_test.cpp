// Every refusal the API promises, with its exact status and code, and no half-written state.
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;

namespace {

enum class Caller { none, full, read_only, unknown_key, malformed_key };

struct BadRequest {
    std::string description;
    std::string method;
    std::string path;
    std::optional<std::string> body;  // sent as application/json when present
    Caller caller;
    long status;
    std::string code;
    std::string detail;  // a details.fields entry (422) or the required_scope (403)
};

std::string json_text(const nlohmann::json& j) {
    return j.dump();
}

}  // namespace

TEST_CASE("bad requests get their exact status and error code and write nothing", "[e2e][errors]") {
    StackOptions options = api_only();
    options.max_body_bytes = 65536;
    Stack stack(options);
    const auto& tenant = stack.tenant();
    const std::string read_only = stack.create_key(tenant.workspace_id, "test", "jobs:read");
    const std::string tts = "/v1/audio/text-to-speech";

    const std::vector<BadRequest> cases = {
        {"no key", "GET", "/v1/me", std::nullopt, Caller::none, 401, "UNAUTHORIZED", ""},
        {"a key of the wrong shape", "GET", "/v1/me", std::nullopt, Caller::malformed_key, 401,
         "INVALID_API_KEY", ""},
        {"a well-formed key nobody issued", "GET", "/v1/me", std::nullopt, Caller::unknown_key, 401,
         "INVALID_API_KEY", ""},
        {"speech without audio:write", "POST", tts, json_text({{"text", "hi"}}), Caller::read_only,
         403, "INSUFFICIENT_SCOPE", "audio:write"},
        {"media without media:read", "GET", "/v1/media/med_missing", std::nullopt,
         Caller::read_only, 403, "INSUFFICIENT_SCOPE", "media:read"},
        {"a job that does not exist", "GET", "/v1/jobs/job_000000000000000000000000", std::nullopt,
         Caller::full, 404, "RESOURCE_NOT_FOUND", ""},
        {"media that does not exist", "GET", "/v1/media/med_missing", std::nullopt, Caller::full,
         404, "RESOURCE_NOT_FOUND", ""},
        {"cancelling a job that does not exist", "POST",
         "/v1/jobs/job_000000000000000000000000/cancel", std::nullopt, Caller::full, 404,
         "RESOURCE_NOT_FOUND", ""},
        {"a route that does not exist", "GET", "/v1/no-such-thing", std::nullopt, Caller::full, 404,
         "RESOURCE_NOT_FOUND", ""},
        {"DELETE on the speech route", "DELETE", tts, std::nullopt, Caller::full, 405,
         "METHOD_NOT_ALLOWED", ""},
        {"PUT on a job", "PUT", "/v1/jobs/job_000000000000000000000000", json_text({}),
         Caller::full, 405, "METHOD_NOT_ALLOWED", ""},
        {"malformed JSON", "POST", tts, std::string("{\"text\": \"unterminated"), Caller::full, 400,
         "INVALID_REQUEST", ""},
        {"a body over api.max_body_bytes", "POST", tts,
         json_text({{"text", std::string(100000, 'a')}}), Caller::full, 413, "PAYLOAD_TOO_LARGE",
         ""},
        {"speech without text", "POST", tts, json_text(nlohmann::json::object()), Caller::full, 422,
         "VALIDATION_ERROR", "text"},
        {"empty text", "POST", tts, json_text({{"text", ""}}), Caller::full, 422,
         "VALIDATION_ERROR", "text"},
        {"text that is not a string", "POST", tts, json_text({{"text", 42}}), Caller::full, 422,
         "VALIDATION_ERROR", "text"},
        {"a speed that is not a number", "POST", tts,
         json_text({{"text", "hi"}, {"speed", "fast"}}), Caller::full, 422, "VALIDATION_ERROR",
         "speed"},
        {"a voice that is not a string", "POST", tts, json_text({{"text", "hi"}, {"voice", 7}}),
         Caller::full, 422, "VALIDATION_ERROR", "voice"},
        {"an unknown job status filter", "GET", "/v1/jobs?status=sleeping", std::nullopt,
         Caller::full, 422, "VALIDATION_ERROR", "status"},
        {"per_page of zero", "GET", "/v1/jobs?per_page=0", std::nullopt, Caller::full, 422,
         "VALIDATION_ERROR", "per_page"},
        {"per_page over 100", "GET", "/v1/jobs?per_page=101", std::nullopt, Caller::full, 422,
         "VALIDATION_ERROR", "per_page"},
        {"page zero", "GET", "/v1/jobs?page=0", std::nullopt, Caller::full, 422, "VALIDATION_ERROR",
         "page"},
    };

    for (const auto& c : cases) {
        INFO(c.description << ": " << c.method << " " << c.path);
        Headers headers;
        switch (c.caller) {
            case Caller::none:
                break;
            case Caller::full:
                headers["Authorization"] = "Bearer " + tenant.test_key;
                break;
            case Caller::read_only:
                headers["Authorization"] = "Bearer " + read_only;
                break;
            case Caller::unknown_key:
                headers["Authorization"] = "Bearer sqk_test_" + std::string(43, 'A');
                break;
            case Caller::malformed_key:
                headers["Authorization"] = "Bearer not-a-key";
                break;
        }
        const auto r = c.body ? stack.request_raw(c.method, c.path, *c.body, "", headers)
                              : stack.request(c.method, c.path, nullptr, "", headers);
        check_error_envelope(r, c.status, c.code);
        if (!c.detail.empty() && r.json.is_object()) {
            const auto& details = r.json["error"]["details"];
            if (c.status == 403) {
                CHECK(details.value("required_scope", "") == c.detail);
            } else {
                REQUIRE(details.contains("fields"));
                CHECK(details["fields"].contains(c.detail));
                CHECK(details["fields"].value(c.detail, "").size() > 0);
            }
        }
    }
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 0);
    CHECK(stack.count("SELECT COUNT(*) FROM media") == 0);
}

TEST_CASE(
    "a header block over 16 kB, or one header line over 8 kB, is 431 and the connection closes, "
    "a block just under both is served",
    "[e2e][errors]") {
    // The shipped body limit (1 MB) lets Pistache read 8 MB requests, 900 kB of headers included.
    StackOptions options = api_only();
    options.max_body_bytes = 1048576;
    Stack stack(options);
    const auto& key = stack.tenant().test_key;
    Headers padded;
    for (int i = 0; i < 900; ++i)
        padded.emplace("X-Pad-" + std::to_string(i), std::string(1000, 'p'));
    const auto huge = stack.request("GET", "/v1/me", nullptr, key, padded);
    check_error_envelope(huge, 431, "HEADERS_TOO_LARGE");
    CHECK(huge.json["error"]["details"]["max_header_bytes"] == 16384);
    CHECK(huge.header("connection") == "Close");

    const auto long_line =
        stack.request("GET", "/v1/me", nullptr, key, {{"X-Long", std::string(9000, 'l')}});
    check_error_envelope(long_line, 431, "HEADERS_TOO_LARGE");
    CHECK(long_line.json["error"]["details"]["max_header_line_bytes"] == 8192);

    Headers fits;
    for (int i = 0; i < 7; ++i) fits.emplace("X-Pad-" + std::to_string(i), std::string(2000, 'p'));
    const auto served = stack.request("GET", "/v1/me", nullptr, key, fits);
    check_success_envelope(served, 200);
    CHECK(served.header("connection") == "Keep-Alive");
}
