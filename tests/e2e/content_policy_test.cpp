// A workspace's own content policy from the outside: its words and patterns refuse its generate
// calls with 422 CONTENT_POLICY_VIOLATION before anything is charged, other workspaces are not
// affected, and lists that cannot be used are refused with the bad entry named.
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;

namespace {

const nlohmann::json kLists = {{"words", {"Forbidden"}}, {"patterns", {"secret\\s+plan"}}};

HttpResponse title_card(Stack& stack, const std::string& key, const std::string& title) {
    return stack.request("POST", "/v1/images/generate", {{"template", "title"}, {"title", title}},
                         key);
}

}  // namespace

TEST_CASE(
    "a workspace's blocked word or pattern refuses its generate calls uncharged, and another "
    "workspace is unaffected",
    "[e2e][content_policy]") {
    StackOptions options = without_worker();
    options.extra_config = "[billing]\nmonthly_allowance = 0\n\n[billing.prices]\nimage = 0.5\n";
    Stack stack(options);
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "2");
    const auto other = stack.create_tenant("other");

    const auto empty = stack.request("GET", "/v1/content-policy", nullptr, tenant.live_key);
    check_success_envelope(empty, 200);
    CHECK(empty.json["data"]["words"].empty());
    CHECK(empty.json["data"]["global_policy_active"] == false);

    const auto put = stack.request("PUT", "/v1/content-policy", kLists, tenant.live_key);
    check_success_envelope(put, 200);
    CHECK(put.json["data"]["words"] == nlohmann::json{"Forbidden"});
    const auto read = stack.request("GET", "/v1/content-policy", nullptr, tenant.live_key);
    CHECK(read.json["data"]["patterns"] == nlohmann::json{"secret\\s+plan"});

    const auto word = title_card(stack, tenant.live_key, "Something forbidden");
    check_error_envelope(word, 422, "CONTENT_POLICY_VIOLATION");
    CHECK(word.json["error"]["details"]["field"] == "title");
    check_error_envelope(title_card(stack, tenant.live_key, "Our SECRET   plan"), 422,
                         "CONTENT_POLICY_VIOLATION");
    CHECK(balance_total(stack, tenant.live_key) == "2.0000");
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 0);
    CHECK(stack.count("SELECT COUNT(*) FROM wallet_ledger WHERE kind = 'reserve'") == 0);

    // Allowed text still passes, and the other workspace has its own (empty) lists.
    check_success_envelope(title_card(stack, tenant.live_key, "Something allowed"), 202);
    check_success_envelope(title_card(stack, other.test_key, "Something forbidden"), 202);
    CHECK(stack.request("GET", "/v1/content-policy", nullptr, other.test_key)
              .json["data"]["words"]
              .empty());

    // Clearing the lists lets the word through again at once.
    check_success_envelope(
        stack.request("PUT", "/v1/content-policy",
                      {{"words", nlohmann::json::array()}, {"patterns", nlohmann::json::array()}},
                      tenant.live_key),
        200);
    check_success_envelope(title_card(stack, tenant.live_key, "Something forbidden"), 202);
}

TEST_CASE("content policy lists that cannot be used are refused with the entry named",
          "[e2e][content_policy][bad_input]") {
    Stack stack(without_worker());
    const auto& key = stack.tenant().test_key;
    const auto refused = [&](const nlohmann::json& body, const std::string& field) {
        const auto r = stack.request("PUT", "/v1/content-policy", body, key);
        check_error_envelope(r, 422, "VALIDATION_ERROR");
        INFO(r.body);
        CHECK(r.json["error"]["details"]["fields"].contains(field));
    };
    const auto none = nlohmann::json::array();
    refused({{"words", {"ok"}}, {"patterns", {"fine", "(unclosed", "ok"}}}, "patterns[1]");
    refused({{"words", none}, {"patterns", {"(a)\\1"}}}, "patterns[0]");
    refused({{"words", none}, {"patterns", {std::string(101, 'a')}}}, "patterns[0]");
    refused({{"words", {"a", " "}}, {"patterns", none}}, "words[1]");
    refused({{"words", {"a", 3}}, {"patterns", none}}, "words[1]");
    refused({{"words", {"a", "a"}}, {"patterns", none}}, "words[1]");
    refused({{"words", {std::string(101, 'w')}}, {"patterns", none}}, "words[0]");
    refused({{"patterns", none}}, "words");
    refused({{"words", none}, {"patterns", std::vector<std::string>(21, "x")}}, "patterns");
    refused({{"words", none}, {"patterns", none}, {"regexes", none}}, "regexes");
    CHECK(stack.count("SELECT COUNT(*) FROM content_policy_rules") == 0);
}

TEST_CASE("the content policy needs the workspaces scopes", "[e2e][content_policy]") {
    Stack stack(without_worker());
    const auto& tenant = stack.tenant();
    const std::string narrow = stack.create_key(tenant.workspace_id, "test", "images:write", 100);
    const auto r = stack.request("GET", "/v1/content-policy", nullptr, narrow);
    check_error_envelope(r, 403, "INSUFFICIENT_SCOPE");
    CHECK(r.json["error"]["details"]["required_scope"] == "workspaces:read");
    check_error_envelope(stack.request("PUT", "/v1/content-policy", kLists, narrow), 403,
                         "INSUFFICIENT_SCOPE");
}
