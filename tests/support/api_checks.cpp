#include "tests/support/api_checks.hpp"

#include <catch2/catch.hpp>

namespace squawk::testing {
namespace {

void check_meta(const HttpResponse& r) {
    REQUIRE(r.json.is_object());
    REQUIRE(r.json.contains("meta"));
    const auto& meta = r.json["meta"];
    const std::string request_id = meta.value("request_id", "");
    CHECK(request_id.rfind("req_", 0) == 0);
    CHECK(request_id.size() == 4 + 36);
    CHECK(r.header("x-request-id") == request_id);
    CHECK(meta.value("timestamp", "").ends_with("Z"));
}

}  // namespace

void check_success_envelope(const HttpResponse& r, long status) {
    INFO(r.body);
    CHECK(r.status == status);
    check_meta(r);
    CHECK(r.json.value("success", false));
    CHECK(r.json.contains("data"));
    CHECK_FALSE(r.json.contains("error"));
}

void check_error_envelope(const HttpResponse& r, long status, const std::string& code) {
    INFO(r.body);
    CHECK(r.status == status);
    check_meta(r);
    CHECK(r.json.value("success", true) == false);
    REQUIRE(r.json.contains("error"));
    const auto& error = r.json["error"];
    CHECK(error.value("code", "") == code);
    CHECK_FALSE(error.value("message", "").empty());
    CHECK(error.contains("details"));
    CHECK(error["details"].is_object());
    CHECK_FALSE(r.json.contains("data"));
}

std::string submit_speech(Stack& stack, const std::string& key, const std::string& text) {
    const auto r = stack.request("POST", "/v1/audio/text-to-speech", {{"text", text}}, key);
    check_success_envelope(r, 202);
    const auto& data = r.json["data"];
    REQUIRE(data.value("status", "") == "queued");
    const std::string job_id = data.value("job_id", "");
    REQUIRE(job_id.rfind("job_", 0) == 0);
    return job_id;
}

std::optional<nlohmann::json> wait_for_terminal_job(Stack& stack, const std::string& key,
                                                    const std::string& job_id,
                                                    std::chrono::milliseconds timeout) {
    nlohmann::json last;
    const bool done = Stack::wait_until(
        [&] {
            const auto r = stack.request("GET", "/v1/jobs/" + job_id, nullptr, key);
            if (r.status != 200 || !r.json.is_object()) return false;
            last = r.json["data"];
            const std::string status = last.value("status", "");
            return status == "completed" || status == "failed" || status == "cancelled";
        },
        timeout, std::chrono::milliseconds(100));
    if (!done) return std::nullopt;
    return last;
}

void check_not_found(const HttpResponse& response) {
    check_error_envelope(response, 404, "RESOURCE_NOT_FOUND");
}

nlohmann::json completed_creation(Stack& stack, const std::string& key, const std::string& family,
                                  const nlohmann::json& body, std::chrono::milliseconds timeout) {
    const auto accepted = stack.request("POST", "/v1/" + family + "/generate", body, key);
    check_success_envelope(accepted, 202);
    const auto job =
        wait_for_terminal_job(stack, key, accepted.json["data"].value("job_id", ""), timeout);
    REQUIRE(job);
    INFO(job->dump());
    REQUIRE(job->value("status", "") == "completed");
    const auto made = stack.request(
        "GET", "/v1/" + family + "/" + accepted.json["data"].value("id", ""), nullptr, key);
    check_success_envelope(made, 200);
    return made.json["data"];
}

std::string balance_total(Stack& stack, const std::string& key) {
    const auto r = stack.request("GET", "/v1/me/balance", nullptr, key);
    check_success_envelope(r, 200);
    return r.json["data"]["balance"].value("total", "");
}

std::string downloaded_media(Stack& stack, const std::string& key, const std::string& media_id) {
    const auto r = stack.request("GET", "/v1/media/" + media_id + "/download", nullptr, key);
    REQUIRE(r.status == 200);
    return r.body;
}

}  // namespace squawk::testing
