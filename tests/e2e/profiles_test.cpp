// Profiles (spec 2.7, 5.6) from the outside: the CRUD routes with their scopes, the bare read,
// X-Profile-Id acting inside a profile while billing and limits stay on the caller, and the
// refusals for profiles not owned, paused profiles and malformed input.
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;

namespace {

nlohmann::json create_profile(Stack& stack, const std::string& key, const nlohmann::json& body) {
    const auto r = stack.request("POST", "/v1/profiles", body, key);
    check_success_envelope(r, 201);
    return r.json["data"];
}

std::string path_of(const nlohmann::json& profile) {
    return "/v1/profiles/" + std::to_string(profile.value("id", 0));
}

}  // namespace

TEST_CASE(
    "profiles are created, listed, read as a bare object, renamed, paused, resumed and "
    "deleted with confirmation",
    "[e2e][profiles]") {
    Stack stack(without_worker());
    const auto& key = stack.tenant().live_key;
    const auto p =
        create_profile(stack, key, {{"name", "Acme Bakery"}, {"external_id", "cust-42"}});
    CHECK(p["name"] == "Acme Bakery");
    CHECK(p["external_id"] == "cust-42");
    CHECK(p["status"] == "active");
    CHECK(p["paused_for_billing"] == false);
    CHECK(p["workspace_id"].get<long long>() != stack.tenant().workspace_id);
    CHECK(p["created_at"].get<std::string>().back() == 'Z');
    create_profile(stack, key, {{"name", "Second"}});

    const auto bare = stack.request("GET", path_of(p), nullptr, key);
    REQUIRE(bare.status == 200);
    CHECK_FALSE(bare.json.contains("success"));
    CHECK(bare.json == p);

    const auto listed = stack.request("GET", "/v1/profiles?per_page=1", nullptr, key);
    check_success_envelope(listed, 200);
    CHECK(listed.json["data"].size() == 1);
    CHECK(listed.json["pagination"]["total"] == 2);

    const auto renamed =
        stack.request("PATCH", path_of(p), {{"name", "Acme Bakes"}, {"external_id", nullptr}}, key);
    check_success_envelope(renamed, 200);
    CHECK(renamed.json["data"]["name"] == "Acme Bakes");
    CHECK(renamed.json["data"]["external_id"].is_null());

    const auto paused = stack.request("POST", path_of(p) + "/pause", nullptr, key);
    check_success_envelope(paused, 200);
    CHECK(paused.json["data"]["paused_for_billing"] == true);
    CHECK(paused.json["data"]["status"] == "paused");
    const auto resumed = stack.request("POST", path_of(p) + "/resume", nullptr, key);
    CHECK(resumed.json["data"]["paused_for_billing"] == false);
    CHECK(resumed.json["data"]["status"] == "active");

    check_error_envelope(stack.request("DELETE", path_of(p), {{"confirm", "delete"}}, key), 422,
                         "VALIDATION_ERROR");
    check_error_envelope(stack.request("DELETE", path_of(p), nullptr, key), 422,
                         "VALIDATION_ERROR");
    check_success_envelope(stack.request("DELETE", path_of(p), {{"confirm", "DELETE"}}, key), 200);
    check_not_found(stack.request("GET", path_of(p), nullptr, key));
}

TEST_CASE(
    "profile routes need profiles:read or profiles:manage, and another workspace's "
    "profile is 404",
    "[e2e][profiles][auth]") {
    Stack stack(without_worker());
    const auto& tenant = stack.tenant();
    const auto p = create_profile(stack, tenant.live_key, {{"name", "Mine"}});
    const std::string reader = stack.create_key(tenant.workspace_id, "live", "profiles:read");
    check_success_envelope(stack.request("GET", "/v1/profiles", nullptr, reader), 200);
    const auto denied = stack.request("POST", "/v1/profiles", {{"name", "No"}}, reader);
    check_error_envelope(denied, 403, "INSUFFICIENT_SCOPE");
    CHECK(denied.json["error"]["details"]["required_scope"] == "profiles:manage");
    const std::string none = stack.create_key(tenant.workspace_id, "live", "jobs:read");
    check_error_envelope(stack.request("GET", path_of(p), nullptr, none), 403,
                         "INSUFFICIENT_SCOPE");

    const auto stranger = stack.create_tenant("stranger");
    for (const auto& [method, suffix] : std::vector<std::pair<std::string, std::string>>{
             {"GET", ""}, {"POST", "/pause"}, {"POST", "/resume"}}) {
        check_not_found(stack.request(method, path_of(p) + suffix, nullptr, stranger.live_key));
    }
    check_not_found(stack.request("PATCH", path_of(p), {{"name", "Theirs"}}, stranger.live_key));
    check_not_found(
        stack.request("DELETE", path_of(p), {{"confirm", "DELETE"}}, stranger.live_key));
    CHECK(stack.request("GET", "/v1/profiles", nullptr, stranger.live_key).json["data"].empty());
    check_not_found(stack.request("GET", "/v1/profiles/abc", nullptr, tenant.live_key));
}

TEST_CASE("X-Profile-Id acts inside the profile while billing and usage stay on the caller",
          "[e2e][profiles]") {
    StackOptions options;
    options.extra_config =
        "[billing]\nmonthly_allowance = 0\n\n[billing.prices]\n"
        "text_to_speech = 0.5\n";
    options.start_worker = false;  // a completed job would settle its reservation
    Stack stack(options);
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "2");
    const auto p = create_profile(stack, tenant.live_key, {{"name", "Client"}});
    const Headers inside = {{"X-Profile-Id", std::to_string(p.value("id", 0))}};

    const auto submitted =
        stack.request("POST", "/v1/audio/text-to-speech", {{"text", "Inside the profile."}},
                      tenant.live_key, inside);
    check_success_envelope(submitted, 202);
    // Four words' worth at 120 a minute, plus the pad: 3 s reserved.
    CHECK(submitted.json["usage"]["balance_remaining"] == "0.5000");
    const std::string job_id = submitted.json["data"].value("job_id", "");
    CHECK(stack.count("SELECT COUNT(*) FROM jobs WHERE workspace_id = ?",
                      {p.value("workspace_id", 0LL)}) == 1);
    // The job belongs to the profile: visible inside it, not in the owner's own workspace.
    CHECK(stack.request("GET", "/v1/jobs/" + job_id, nullptr, tenant.live_key, inside).status ==
          200);
    check_not_found(stack.request("GET", "/v1/jobs/" + job_id, nullptr, tenant.live_key));
    // Billing stays on the caller, also when read from inside the profile.
    const auto balance = stack.request("GET", "/v1/me/balance", nullptr, tenant.live_key, inside);
    CHECK(balance.json["data"]["balance"]["total"] == "0.5000");
    // Rate limits too: the caller's allowance counts the requests made inside the profile.
    const auto me = stack.request("GET", "/v1/me", nullptr, tenant.live_key);
    CHECK(std::stoi(me.header("x-ratelimit-remaining")) ==
          std::stoi(balance.header("x-ratelimit-remaining")) - 1);
}

TEST_CASE(
    "X-Profile-Id is refused for profiles not owned, paused profiles, keys without "
    "profiles:manage, malformed ids and profile routes",
    "[e2e][profiles][bad_input]") {
    Stack stack(without_worker());
    const auto& tenant = stack.tenant();
    const auto p = create_profile(stack, tenant.live_key, {{"name", "Client"}});
    const std::string id = std::to_string(p.value("id", 0));
    const auto stranger = stack.create_tenant("stranger");

    check_not_found(
        stack.request("GET", "/v1/jobs", nullptr, stranger.live_key, {{"X-Profile-Id", id}}));
    const std::string jobs_only = stack.create_key(tenant.workspace_id, "live", "jobs:read");
    const auto scope = stack.request("GET", "/v1/jobs", nullptr, jobs_only, {{"X-Profile-Id", id}});
    check_error_envelope(scope, 403, "INSUFFICIENT_SCOPE");
    CHECK(scope.json["error"]["details"]["required_scope"] == "profiles:manage");
    for (const std::string bad : {"0", "-1", "abc", "1.5", "12345678901234567890", "1 2", "0x10"}) {
        INFO(bad);
        check_error_envelope(
            stack.request("GET", "/v1/jobs", nullptr, tenant.live_key, {{"X-Profile-Id", bad}}),
            400, "INVALID_REQUEST");
    }
    check_error_envelope(
        stack.request("GET", "/v1/profiles", nullptr, tenant.live_key, {{"X-Profile-Id", id}}), 403,
        "FORBIDDEN");

    REQUIRE(stack.request("POST", path_of(p) + "/pause", nullptr, tenant.live_key).status == 200);
    check_error_envelope(
        stack.request("GET", "/v1/jobs", nullptr, tenant.live_key, {{"X-Profile-Id", id}}), 409,
        "CONFLICT");
}

TEST_CASE("bad profile fields are refused with details.fields and nothing is written",
          "[e2e][profiles][bad_input]") {
    Stack stack(without_worker());
    const auto& key = stack.tenant().live_key;
    const auto p = create_profile(stack, key, {{"name", "Keep"}});
    struct Case {
        const char* what;
        nlohmann::json body;
        const char* field;
    };
    const std::vector<Case> creates = {
        {"missing name", nlohmann::json::object(), "name"},
        {"blank name", {{"name", "   "}}, "name"},
        {"name not a string", {{"name", 5}}, "name"},
        {"name too long", {{"name", std::string(201, 'n')}}, "name"},
        {"external_id not a string", {{"name", "A"}, {"external_id", 7}}, "external_id"},
        {"external_id too long",
         {{"name", "A"}, {"external_id", std::string(201, 'e')}},
         "external_id"},
        {"unknown field", {{"name", "A"}, {"plan", "gold"}}, "plan"},
    };
    for (const auto& c : creates) {
        INFO(c.what);
        const auto r = stack.request("POST", "/v1/profiles", c.body, key);
        check_error_envelope(r, 422, "VALIDATION_ERROR");
        CHECK(r.json["error"]["details"]["fields"].contains(c.field));
    }
    const std::vector<Case> patches = {
        {"empty patch", nlohmann::json::object(), "name"},
        {"null name", {{"name", nullptr}}, "name"},
        {"blank name", {{"name", ""}}, "name"},
        {"external_id too long", {{"external_id", std::string(201, 'e')}}, "external_id"},
        {"unknown field", {{"status", "paused"}}, "status"},
    };
    for (const auto& c : patches) {
        INFO(c.what);
        const auto r = stack.request("PATCH", path_of(p), c.body, key);
        check_error_envelope(r, 422, "VALIDATION_ERROR");
        CHECK(r.json["error"]["details"]["fields"].contains(c.field));
    }
    const std::vector<Case> deletes = {
        {"confirm lower case", {{"confirm", "delete"}}, "confirm"},
        {"confirm not a string", {{"confirm", true}}, "confirm"},
        {"extra field", {{"confirm", "DELETE"}, {"force", true}}, "force"},
    };
    for (const auto& c : deletes) {
        INFO(c.what);
        const auto r = stack.request("DELETE", path_of(p), c.body, key);
        check_error_envelope(r, 422, "VALIDATION_ERROR");
        CHECK(r.json["error"]["details"]["fields"].contains(c.field));
    }
    CHECK(stack.count("SELECT COUNT(*) FROM profiles") == 1);
    CHECK(stack.request("GET", path_of(p), nullptr, key).json["name"] == "Keep");
}
