// X-Idempotency-Key (spec 4.4) from the outside: replays return the original answer without
// running or billing again, a reused key with another request is refused, simultaneous repeats
// run the action once, and malformed keys or DELETE bodies are refused.
#include "tests/support/api_checks.hpp"
#include "tests/support/concurrent_requests.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace squawk::testing;

namespace {

const std::string kSpeech = "/v1/audio/text-to-speech";

StackOptions paid_options() {
    StackOptions options = without_worker();
    options.extra_config =
        "[billing]\nmonthly_allowance = 0\n\n[billing.prices]\n"
        "text_to_speech = 1\n";
    return options;
}

}  // namespace

TEST_CASE(
    "the same key and request within the lifetime replays the original answer without "
    "running or billing again",
    "[e2e][idempotency]") {
    Stack stack(paid_options());
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "5");
    const Headers key = {{"X-Idempotency-Key", "order-7f3a"}};
    const auto first =
        stack.request("POST", kSpeech, {{"text", "Once only."}}, tenant.live_key, key);
    check_success_envelope(first, 202);
    CHECK(first.header("x-idempotent-replay").empty());
    const auto again =
        stack.request("POST", kSpeech, {{"text", "Once only."}}, tenant.live_key, key);
    check_success_envelope(again, 202);
    CHECK(again.header("x-idempotent-replay") == "true");
    CHECK(again.json["data"] == first.json["data"]);
    CHECK(again.json["usage"] == first.json["usage"]);
    CHECK(again.json["meta"]["request_id"] != first.json["meta"]["request_id"]);
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 1);
    CHECK(stack.count("SELECT COUNT(*) FROM wallet_ledger WHERE kind = 'reserve'") == 1);

    // Another workspace using the same key string is independent.
    const auto other = stack.create_tenant("other");
    check_success_envelope(
        stack.request("POST", kSpeech, {{"text", "Once only."}}, other.test_key, key), 202);
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 2);
}

TEST_CASE(
    "a keyed request's record is marked in its write's own transaction, the charge before it "
    "is not, and a refused request gives its key back",
    "[e2e][idempotency]") {
    Stack stack(paid_options());
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "5");
    check_success_envelope(stack.request("POST", kSpeech, {{"text", "Marked."}}, tenant.live_key,
                                         {{"X-Idempotency-Key", "written"}}),
                           202);
    CHECK(stack.count("SELECT effect_committed FROM idempotency_records"
                      " WHERE idempotency_key = 'written'") == 1);
    // Charged, then refused by the handler: the charge is reversed and the key is free again.
    check_error_envelope(stack.request("POST", kSpeech, {{"text", "x"}, {"voice", "nobody"}},
                                       tenant.live_key, {{"X-Idempotency-Key", "refused"}}),
                         422, "VALIDATION_ERROR");
    CHECK(stack.count("SELECT COUNT(*) FROM idempotency_records"
                      " WHERE idempotency_key = 'refused'") == 0);
    check_success_envelope(stack.request("POST", kSpeech, {{"text", "Now valid."}}, tenant.live_key,
                                         {{"X-Idempotency-Key", "refused"}}),
                           202);
}

TEST_CASE("a key reused with another body or endpoint is 409 IDEMPOTENCY_CONFLICT",
          "[e2e][idempotency]") {
    Stack stack(without_worker());
    const auto& key = stack.tenant().test_key;
    const Headers idem = {{"X-Idempotency-Key", "k-1"}};
    check_success_envelope(stack.request("POST", kSpeech, {{"text", "First."}}, key, idem), 202);
    check_error_envelope(stack.request("POST", kSpeech, {{"text", "Second."}}, key, idem), 409,
                         "IDEMPOTENCY_CONFLICT");
    check_error_envelope(stack.request("POST", "/v1/profiles", {{"name", "P"}}, key, idem), 409,
                         "IDEMPOTENCY_CONFLICT");
    // A test key and a live key are different callers of the same request.
    check_error_envelope(
        stack.request("POST", kSpeech, {{"text", "First."}}, stack.tenant().live_key, idem), 409,
        "IDEMPOTENCY_CONFLICT");
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 1);
    CHECK(stack.count("SELECT COUNT(*) FROM profiles") == 0);
}

TEST_CASE("a failed request stores nothing, so its key can be used again", "[e2e][idempotency]") {
    Stack stack(without_worker());
    const auto& key = stack.tenant().test_key;
    const Headers idem = {{"X-Idempotency-Key", "retry-me"}};
    check_error_envelope(stack.request("POST", "/v1/profiles", {{"name", ""}}, key, idem), 422,
                         "VALIDATION_ERROR");
    check_success_envelope(stack.request("POST", "/v1/profiles", {{"name", "Fixed"}}, key, idem),
                           201);
}

TEST_CASE(
    "50 simultaneous identical requests with one key run the action once and the others "
    "get the replay or 409 CONFLICT while it runs",
    "[e2e][idempotency][concurrency]") {
    Stack stack(paid_options());
    const std::string second = stack.start_extra_api();
    const auto& tenant = stack.tenant();
    const std::string key = stack.create_key(tenant.workspace_id, "live", "all", 100000);
    stack.credit(tenant.workspace_id, "100");
    ConcurrentRequest request;
    request.method = "POST";
    request.path = kSpeech;
    request.body = R"({"text":"Exactly one job."})";
    request.headers = {{"Authorization", "Bearer " + key}, {"X-Idempotency-Key", "burst-1"}};
    const auto responses = send_concurrently({stack.base_url(), second}, 50, request);
    std::set<std::string> job_ids;
    int accepted = 0, in_flight = 0;
    for (const auto& r : responses) {
        if (r.status == 202) {
            ++accepted;
            job_ids.insert(r.json["data"].value("job_id", ""));
        } else {
            check_error_envelope(r, 409, "CONFLICT");
            ++in_flight;
        }
    }
    CHECK(accepted + in_flight == 50);
    CHECK(accepted >= 1);
    CHECK(job_ids.size() == 1);
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 1);
    CHECK(stack.count("SELECT COUNT(*) FROM wallet_ledger WHERE kind = 'reserve'") == 1);
}

TEST_CASE("malformed idempotency keys and DELETE bodies without a JSON content type are 400",
          "[e2e][idempotency][bad_input]") {
    Stack stack(without_worker());
    const auto& key = stack.tenant().test_key;
    for (const auto& bad : {std::string(256, 'k'), std::string("has space"),
                            std::string("tab\there"), std::string("caf\xc3\xa9")}) {
        INFO(bad);
        const auto r =
            stack.request("POST", kSpeech, {{"text", "x"}}, key, {{"X-Idempotency-Key", bad}});
        check_error_envelope(r, 400, "INVALID_REQUEST");
        CHECK(r.json["error"]["details"]["header"] == "X-Idempotency-Key");
    }
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 0);
    const auto created = stack.request("POST", "/v1/profiles", {{"name", "Doomed"}}, key);
    const std::string path = "/v1/profiles/" + std::to_string(created.json["data"].value("id", 0));
    const auto no_type = stack.request_raw("DELETE", path, R"({"confirm":"DELETE"})", key,
                                           {{"Content-Type", "text/plain"}});
    check_error_envelope(no_type, 400, "INVALID_REQUEST");
    CHECK(stack.count("SELECT COUNT(*) FROM profiles") == 1);
}
