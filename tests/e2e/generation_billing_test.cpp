// Prices per unit from the outside (issue #21): a paid generate call reserves price x an upper
// bound of its units when accepted and settles price x the units it made when it completes, both
// in the ledger; a cancel refunds the whole reservation; test keys are never charged.
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace squawk::testing;

namespace {

StackOptions priced(const std::string& prices, bool worker = true) {
    StackOptions options = worker ? StackOptions{} : without_worker();
    options.extra_config = "[billing]\nmonthly_allowance = 0\n\n[billing.prices]\n" + prices;
    return options;
}

// The kinds of the workspace's ledger rows that paid for work, oldest first.
std::vector<std::string> ledger_kinds(Stack& stack, long long workspace_id) {
    return stack.db().run([&](squawk::db::Session& s) {
        std::vector<std::string> kinds;
        for (const auto& row : s.query("SELECT kind FROM wallet_ledger WHERE workspace_id = ?"
                                       " AND kind NOT IN ('credit', 'monthly_reset') ORDER BY id",
                                       {workspace_id}))
            kinds.push_back(row.text(0));
        return kinds;
    });
}

// Credits as the API writes them: "1.2300".
std::string credits(double amount) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", amount);
    return text;
}

}  // namespace

TEST_CASE(
    "a video reserves its narration's upper bound and settles the seconds it lasts, the ledger "
    "showing both",
    "[e2e][billing][videos]") {
    Stack stack(priced("video = 0.1\n"));
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "10");
    // Ten words at 120 a minute: 5 s, plus 1 s of pad.
    const nlohmann::json body{
        {"scenes", {{{"text", "One two three four five six seven eight nine ten."}}}}};
    const auto accepted = stack.request("POST", "/v1/videos/generate", body, tenant.live_key);
    check_success_envelope(accepted, 202);
    CHECK(accepted.json["usage"]["cost"] == "0.6000");
    CHECK(accepted.json["usage"]["balance_remaining"] == "9.4000");

    const std::string id = accepted.json["data"].value("id", "");
    const auto job =
        wait_for_terminal_job(stack, tenant.live_key, accepted.json["data"].value("job_id", ""),
                              std::chrono::seconds(90));
    REQUIRE(job);
    REQUIRE(job->value("status", "") == "completed");
    const auto video = stack.request("GET", "/v1/videos/" + id, nullptr, tenant.live_key);
    check_success_envelope(video, 200);
    const double seconds = std::ceil(video.json["data"].value("duration_seconds", 0.0));
    REQUIRE(seconds >= 1);
    REQUIRE(seconds < 6);
    const std::string charged = credits(0.1 * seconds);
    CHECK(video.json["data"]["cost"]["reserved"] == "0.6000");
    CHECK(video.json["data"]["cost"]["charged"] == charged);
    CHECK((*job)["cost"]["charged"] == charged);
    CHECK(balance_total(stack, tenant.live_key) == credits(10 - 0.1 * seconds));
    CHECK(ledger_kinds(stack, tenant.workspace_id) ==
          std::vector<std::string>{"reserve", "settle"});
    CHECK(stack.count("SELECT quantity FROM wallet_ledger WHERE workspace_id = ? AND kind ="
                      " 'settle'",
                      {tenant.workspace_id}) == static_cast<long long>(seconds));
}

TEST_CASE("a presentation is charged per slide", "[e2e][billing][presentations]") {
    Stack stack(priced("presentation = 0.5\n"));
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "10");
    const nlohmann::json slide{{"title", "S"}, {"bullets", {"a"}}};
    const auto deck =
        stack.request("POST", "/v1/presentations/generate",
                      {{"title", "Three"}, {"slides", {slide, slide, slide}}}, tenant.live_key);
    check_success_envelope(deck, 202);
    CHECK(deck.json["usage"]["cost"] == "1.5000");
    const auto job = wait_for_terminal_job(
        stack, tenant.live_key, deck.json["data"].value("job_id", ""), std::chrono::seconds(90));
    REQUIRE(job);
    REQUIRE(job->value("status", "") == "completed");
    CHECK((*job)["cost"]["charged"] == "1.5000");
    CHECK(balance_total(stack, tenant.live_key) == "8.5000");
    CHECK(ledger_kinds(stack, tenant.workspace_id) ==
          std::vector<std::string>{"reserve", "settle"});
}

TEST_CASE("speech to text is charged per second of its input", "[e2e][billing][transcripts]") {
    Stack stack(priced("speech_to_text = 0.02\n"));
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "10");
    // Made with the test key, so the recording itself is free.
    const auto spoken = wait_for_terminal_job(
        stack, tenant.test_key,
        submit_speech(stack, tenant.test_key, "Hello world. This is a test of the billing."));
    REQUIRE(spoken);
    REQUIRE(spoken->value("status", "") == "completed");
    const std::string media_id = (*spoken)["result"].value("media_id", "");
    const double input_seconds = std::ceil((*spoken)["result"].value("duration_seconds", 0.0));
    REQUIRE(input_seconds >= 1);

    const auto accepted = stack.request("POST", "/v1/audio/speech-to-text",
                                        {{"media_id", media_id}}, tenant.live_key);
    check_success_envelope(accepted, 202);
    CHECK(accepted.json["usage"]["cost"] == credits(0.02 * input_seconds));
    const auto job =
        wait_for_terminal_job(stack, tenant.live_key, accepted.json["data"].value("job_id", ""),
                              std::chrono::seconds(90));
    REQUIRE(job);
    REQUIRE(job->value("status", "") == "completed");
    const double transcribed = std::ceil((*job)["result"].value("duration_seconds", 0.0));
    CHECK(transcribed <= input_seconds);
    CHECK(balance_total(stack, tenant.live_key) == credits(10 - 0.02 * transcribed));
    CHECK(ledger_kinds(stack, tenant.workspace_id) ==
          std::vector<std::string>{"reserve", "settle"});
}

TEST_CASE("deleting a creation before its job ran refunds the whole reservation",
          "[e2e][billing][videos]") {
    Stack stack(priced("video = 0.1\n", false));
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "1");
    const auto accepted = stack.request("POST", "/v1/videos/generate",
                                        {{"scenes", {{{"text", "Never made."}}}}}, tenant.live_key);
    check_success_envelope(accepted, 202);
    CHECK(accepted.json["usage"]["cost"] == "0.2000");
    CHECK(balance_total(stack, tenant.live_key) == "0.8000");
    const std::string id = accepted.json["data"].value("id", "");
    check_success_envelope(stack.request("DELETE", "/v1/videos/" + id, nullptr, tenant.live_key),
                           200);
    CHECK(balance_total(stack, tenant.live_key) == "1.0000");
    CHECK(ledger_kinds(stack, tenant.workspace_id) ==
          std::vector<std::string>{"reserve", "refund"});
}

TEST_CASE("a test key's generate calls are never charged and leave no ledger rows",
          "[e2e][billing]") {
    Stack stack(priced("video = 0.1\npresentation = 0.5\n", false));
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "1");
    const auto video = stack.request("POST", "/v1/videos/generate",
                                     {{"scenes", {{{"text", "Free."}}}}}, tenant.test_key);
    check_success_envelope(video, 202);
    CHECK(video.json["usage"]["cost"] == "0.0000");
    CHECK(video.json["usage"]["balance_remaining"] == "1.0000");
    const auto job = stack.request("GET", "/v1/jobs/" + video.json["data"].value("job_id", ""),
                                   nullptr, tenant.test_key);
    CHECK(job.json["data"]["cost"].is_null());
    CHECK(ledger_kinds(stack, tenant.workspace_id).empty());
    CHECK(balance_total(stack, tenant.live_key) == "1.0000");
}

TEST_CASE("a wallet that cannot pay the reservation gets 402 and nothing is written",
          "[e2e][billing]") {
    Stack stack(priced("presentation = 0.5\n", false));
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "1");
    const nlohmann::json slide{{"title", "S"}};
    const auto refused =
        stack.request("POST", "/v1/presentations/generate",
                      {{"title", "Three"}, {"slides", {slide, slide, slide}}}, tenant.live_key);
    check_error_envelope(refused, 402, "INSUFFICIENT_BALANCE");
    CHECK(refused.json["error"]["details"]["cost"] == "1.5000");
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 0);
    CHECK(stack.count("SELECT COUNT(*) FROM creations") == 0);
    CHECK(balance_total(stack, tenant.live_key) == "1.0000");
}
