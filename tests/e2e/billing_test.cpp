// The wallet from the outside: billable calls reserve their price per unit from live keys when
// accepted, 402 when the balance is short, exact under concurrency across two API processes,
// refunds when a job fails on our side, GET /me/billing and /me/usage, the monthly reset, and
// squawkctl wallet.
#include "tests/support/api_checks.hpp"
#include "tests/support/concurrent_requests.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <regex>

using namespace squawk::testing;

namespace {

// Price 0.25 credits a second of speech; no monthly allowance, so balances are exactly what tests
// credit. A call reserves its text's upper bound: words at 120 a minute, rounded up, plus 1 s.
StackOptions billing_options() {
    StackOptions options;
    options.extra_config =
        "[billing]\nmonthly_allowance = 0\n\n[billing.prices]\n"
        "text_to_speech = 0.25\n";
    return options;
}

// Tests that poll use a key of their own with a custom limit, so polling never meets the
// workspace's allowance of 60 requests a minute.
std::string polling_key(Stack& stack, long long workspace_id) {
    return stack.create_key(workspace_id, "test", "all", 100000);
}

bool is_decimal4(const nlohmann::json& v) {
    return v.is_string() &&
           std::regex_match(v.get<std::string>(), std::regex("^-?[0-9]+\\.[0-9]{4}$"));
}

}  // namespace

TEST_CASE(
    "a live key's text-to-speech call reserves its upper bound before it runs and reports its "
    "usage, while a test key is never charged",
    "[e2e][billing]") {
    StackOptions options = billing_options();
    options.start_worker = false;  // a completed job would settle the reservation
    Stack stack(options);
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "1");

    const auto paid =
        stack.request("POST", "/v1/audio/text-to-speech", {{"text", "Paid."}}, tenant.live_key);
    check_success_envelope(paid, 202);
    // One word: 1 s of speech and 1 s of pad.
    CHECK(paid.json["usage"]["cost"] == "0.5000");
    CHECK(paid.json["usage"]["balance_remaining"] == "0.5000");
    CHECK(balance_total(stack, tenant.live_key) == "0.5000");

    const auto free =
        stack.request("POST", "/v1/audio/text-to-speech", {{"text", "Free."}}, tenant.test_key);
    check_success_envelope(free, 202);
    CHECK(free.json["usage"]["cost"] == "0.0000");
    CHECK(balance_total(stack, tenant.live_key) == "0.5000");

    // A call refused by validation reserves nothing: the reservation comes after the checks.
    check_error_envelope(
        stack.request("POST", "/v1/audio/text-to-speech", {{"text", ""}}, tenant.live_key), 422,
        "VALIDATION_ERROR");
    CHECK(balance_total(stack, tenant.live_key) == "0.5000");
    CHECK(stack.count(
              "SELECT COUNT(*) FROM wallet_ledger WHERE workspace_id = ? AND kind = 'reserve'",
              {tenant.workspace_id}) == 1);
    CHECK(stack.count("SELECT COUNT(*) FROM wallet_ledger WHERE workspace_id = ?"
                      " AND kind IN ('charge', 'reversal', 'settle', 'refund')",
                      {tenant.workspace_id}) == 0);
}

TEST_CASE("a billable call the wallet cannot pay is refused with 402 and creates nothing",
          "[e2e][billing]") {
    Stack stack(billing_options());
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "0.2");
    const auto refused =
        stack.request("POST", "/v1/audio/text-to-speech", {{"text", "Too poor."}}, tenant.live_key);
    check_error_envelope(refused, 402, "INSUFFICIENT_BALANCE");
    CHECK(refused.json["error"]["details"]["cost"] == "0.5000");
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 0);
    CHECK(balance_total(stack, tenant.live_key) == "0.2000");
}

TEST_CASE(
    "with credit for exactly 50 calls, 100 simultaneous calls through two API processes "
    "give 50 successes and 50 refusals and the balance ends at zero",
    "[e2e][billing][concurrency]") {
    StackOptions options = billing_options();
    options.start_worker = false;
    Stack stack(options);
    const std::string second = stack.start_extra_api();
    const auto& tenant = stack.tenant();
    const std::string key = stack.create_key(tenant.workspace_id, "live", "all", 100000);
    // Each call reserves 4 s (five words): 1 credit.
    stack.credit(tenant.workspace_id, "50");

    ConcurrentRequest request;
    request.method = "POST";
    request.path = "/v1/audio/text-to-speech";
    request.body = R"({"text":"Fifty of these are paid."})";
    request.headers = {{"Authorization", "Bearer " + key}};
    const auto responses = send_concurrently({stack.base_url(), second}, 100, request);
    int accepted = 0, refused = 0;
    for (const auto& r : responses) {
        if (r.status == 202) ++accepted;
        if (r.status == 402) ++refused;
    }
    CHECK(accepted == 50);
    CHECK(refused == 50);
    CHECK(balance_total(stack, key) == "0.0000");
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 50);
    CHECK(stack.count("SELECT MIN(purchased_units + monthly_units) FROM wallets"
                      " WHERE workspace_id = ?",
                      {tenant.workspace_id}) == 0);
}

TEST_CASE("a paid job that fails on our side is refunded once", "[e2e][billing]") {
    StackOptions options = billing_options();
    options.max_attempts = 2;
    options.extra_config += "\n[providers.espeak]\nbinary = \"/bin/false\"\n";
    Stack stack(options);
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "1");
    const std::string job_id = submit_speech(stack, tenant.live_key, "This synthesis will fail.");
    CHECK(balance_total(stack, tenant.live_key) == "0.0000");
    const auto job = wait_for_terminal_job(stack, tenant.live_key, job_id);
    REQUIRE(job);
    CHECK(job->value("status", "") == "failed");
    const std::string poller = polling_key(stack, tenant.workspace_id);
    REQUIRE(Stack::wait_until([&] { return balance_total(stack, poller) == "1.0000"; },
                              std::chrono::seconds(10)));
    CHECK(stack.count("SELECT COUNT(*) FROM wallet_ledger WHERE kind = 'refund'") == 1);
}

TEST_CASE(
    "GET /me/billing describes the wallet with 4-digit decimals, the monthly cycle, "
    "auto-recharge and payment state",
    "[e2e][billing]") {
    StackOptions options = billing_options();
    options.start_worker = false;
    Stack stack(options);
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "12.5");
    REQUIRE(stack
                .ctl({"wallet", "auto-recharge", "--workspace", std::to_string(tenant.workspace_id),
                      "--enable", "--below", "20", "--amount", "50"})
                .exit_code == 0);
    const auto r = stack.request("GET", "/v1/me/billing", nullptr, tenant.test_key);
    check_success_envelope(r, 200);
    const auto& d = r.json["data"];
    CHECK(d["currency"] == "USD");
    CHECK(d["balance"]["total"] == "12.5000");
    CHECK(d["balance"]["purchased"] == "12.5000");
    CHECK(d["balance"]["monthly"] == "0.0000");
    CHECK(is_decimal4(d["auto_recharge"]["below"]));
    CHECK(d["auto_recharge"]["below"] == "20.0000");
    CHECK(d["auto_recharge"]["amount"] == "50.0000");
    CHECK(d["auto_recharge"]["enabled"] == true);
    CHECK(d["auto_recharge"]["active"] == false);  // no card can be on file
    CHECK(d["payment"]["card_on_file"] == false);
    CHECK(d["payment"]["status"] == "low");
    CHECK(d["prices"]["text_to_speech"]["price"] == "0.2500");
    CHECK(d["prices"]["text_to_speech"]["per"] == "second");
    CHECK(d["prices"]["presentation"]["per"] == "slide");
    CHECK(d["prices"]["article"]["per"] == "item");
    const std::string reset = d["cycle"].value("monthly_reset_at", "");
    CHECK(std::regex_match(reset, std::regex("^[0-9]{4}-[0-9]{2}-01T00:00:00(\\.0+)?Z$")));
    const auto shown =
        stack.ctl({"wallet", "show", "--workspace", std::to_string(tenant.workspace_id)});
    CHECK(shown.exit_code == 0);
    CHECK(shown.out.find("12.5000") != std::string::npos);
}

TEST_CASE("the scheduler grants the monthly allowance when a wallet's cycle ends",
          "[e2e][billing]") {
    StackOptions options = without_worker();
    options.extra_config = "[billing]\nmonthly_allowance = 3.5\n";
    Stack stack(options);
    const auto& tenant = stack.tenant();
    const std::string poller = polling_key(stack, tenant.workspace_id);
    // The first cycle starts as soon as the scheduler sees the wallet.
    REQUIRE(Stack::wait_until([&] { return balance_total(stack, poller) == "3.5000"; },
                              std::chrono::seconds(15)));
    // Spent allowance, then the cycle ends: the allowance is restored, not added to.
    stack.db().run([&](squawk::db::Session& s) {
        s.execute(
            "UPDATE wallets SET monthly_units = 1000, monthly_reset_at ="
            " UTC_TIMESTAMP(6) - INTERVAL 1 SECOND WHERE workspace_id = ?",
            {tenant.workspace_id});
    });
    REQUIRE(Stack::wait_until([&] { return balance_total(stack, poller) == "3.5000"; },
                              std::chrono::seconds(15)));
    const auto billing = stack.request("GET", "/v1/me/billing", nullptr, tenant.test_key);
    CHECK(billing.json["data"]["cycle"]["monthly_allowance"] == "3.5000");
    CHECK(stack.count("SELECT COUNT(*) FROM wallets WHERE workspace_id = ? AND monthly_reset_at >"
                      " UTC_TIMESTAMP(6) + INTERVAL 1 DAY - INTERVAL 32 DAY",
                      {tenant.workspace_id}) == 1);
    CHECK(stack.count("SELECT COUNT(*) FROM wallet_ledger WHERE workspace_id = ?"
                      " AND kind = 'monthly_reset'",
                      {tenant.workspace_id}) == 2);
}

TEST_CASE("GET /me/usage counts requests and credits spent in the chosen period",
          "[e2e][billing]") {
    StackOptions options = billing_options();
    options.start_worker = false;
    Stack stack(options);
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "5");
    const std::string poller = polling_key(stack, tenant.workspace_id);
    for (int i = 0; i < 2; ++i)
        check_success_envelope(stack.request("POST", "/v1/audio/text-to-speech",
                                             {{"text", "Count me."}}, tenant.live_key),
                               202);
    for (const std::string period : {"today", "7d", "30d", "90d", "all"}) {
        INFO(period);
        nlohmann::json data;
        // The request log is written in the background, a moment after each answer.
        REQUIRE(Stack::wait_until(
            [&] {
                const auto r =
                    stack.request("GET", "/v1/me/usage?period=" + period, nullptr, poller);
                data = r.json["data"];
                return r.status == 200 && data.value("total_requests", 0) >= 2;
            },
            std::chrono::seconds(10)));
        CHECK(data["total_credits_used"].get<double>() == Approx(1.0));
        CHECK(data["period"] == period);
    }
    for (const std::string bad : {"yesterday", "7", "", "ALL", "30d%00"}) {
        INFO(bad);
        const auto r = stack.request("GET", "/v1/me/usage?period=" + bad, nullptr, tenant.test_key);
        check_error_envelope(r, 422, "VALIDATION_ERROR");
        CHECK(r.json["error"]["details"]["fields"].contains("period"));
    }
}

TEST_CASE("squawkctl wallet refuses bad amounts and unknown workspaces", "[e2e][billing][ctl]") {
    Stack stack(api_only());
    const std::string ws = std::to_string(stack.tenant().workspace_id);
    for (const std::string bad :
         {"-1", "0", "1.23456", "abc", "1e3", "", " 1", "1.", ".5", "99999999999"}) {
        INFO(bad);
        CHECK(stack.ctl({"wallet", "credit", "--workspace", ws, "--amount", bad}).exit_code == 2);
    }
    CHECK(stack.ctl({"wallet", "credit", "--workspace", "424242", "--amount", "1"}).exit_code == 2);
    CHECK(stack.ctl({"wallet", "auto-recharge", "--workspace", ws}).exit_code == 2);
    CHECK(stack.ctl({"wallet", "auto-recharge", "--workspace", ws, "--enable", "--disable"})
              .exit_code == 2);
    CHECK(stack.ctl({"wallet", "auto-recharge", "--workspace", ws, "--enable", "--below", "1"})
              .exit_code == 2);
    CHECK(stack.ctl({"wallet", "auto-recharge", "--workspace", ws, "--disable"}).exit_code == 0);
    const auto ok = stack.ctl({"wallet", "credit", "--workspace", ws, "--amount", "0.0001"});
    CHECK(ok.exit_code == 0);
    CHECK(ok.out == "0.0001\n");
}
