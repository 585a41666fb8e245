// Articles from the outside, written by the OpenAI-compatible provider against its fake: accepted
// with a job, written once, read back as Markdown and HTML, retried when the provider asks to
// wait, failed and refunded when it refuses; refused up front when no text provider is configured,
// for a model the deployment does not allow, and for input the content policy blocks.
#include "tests/support/api_checks.hpp"
#include "tests/support/fake_server.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;

namespace {

constexpr const char* kArticleProviderKey = "sk-test-articles";

// A deployment whose text provider is the fake; `extra` is appended to its configuration.
struct ArticleStack {
    explicit ArticleStack(const std::string& extra = "", StackOptions options = {})
        : stack([&] {
              options.extra_config =
                  "[generation]\ntext = \"openai\"\n\n[providers.openai]\n"
                  "base_url = \"" +
                  openai.url("/v1") + "\"\napi_key = \"" + kArticleProviderKey +
                  "\"\ntext_models = \"gpt-4o-mini,gpt-4o\"\n"
                  "timeout_seconds = 5\n\n" +
                  extra;
              return options;
          }()) {}

    nlohmann::json api_calls() {
        nlohmann::json calls = nlohmann::json::array();
        for (const auto& r : openai.control("GET", "/_control/requests"))
            if (r.value("path", "") == "/v1/chat/completions") calls.push_back(r);
        return calls;
    }

    FakeServer openai{"fake_openai", {"--api-key", kArticleProviderKey}};
    Stack stack;
};

const std::string kPaidConfig =
    "[billing]\nmonthly_allowance = 0\n\n[billing.prices]\narticle = 0.5\n";

nlohmann::json submit_article(Stack& stack, const std::string& key, const nlohmann::json& body) {
    const auto r = stack.request("POST", "/v1/articles/generate", body, key);
    check_success_envelope(r, 202);
    return r.json;
}

}  // namespace

TEST_CASE(
    "an article is written by the configured text provider and read back as Markdown and "
    "HTML",
    "[e2e][articles]") {
    ArticleStack s;
    auto& stack = s.stack;
    const auto& key = stack.tenant().test_key;
    const auto accepted =
        submit_article(stack, key, {{"topic", "Why durable queues matter"}, {"length", "short"}});
    CHECK(accepted["usage"].value("cost", "") == "0.0000");
    const std::string id = accepted["data"].value("id", "");
    const std::string job_id = accepted["data"].value("job_id", "");
    CHECK(id.rfind("art_", 0) == 0);
    const auto job = wait_for_terminal_job(stack, key, job_id);
    REQUIRE(job);
    INFO(job->dump());
    REQUIRE(job->value("status", "") == "completed");
    CHECK((*job)["result"].value("article_id", "") == id);
    CHECK((*job)["progress"] == 100);
    CHECK((*job)["stage"].is_null());

    const auto article = stack.request("GET", "/v1/articles/" + id, nullptr, key);
    check_success_envelope(article, 200);
    const auto& data = article.json["data"];
    CHECK(data.value("status", "") == "completed");
    CHECK_FALSE(data.value("title", "").empty());
    CHECK(data.value("markdown", "").find("durable queues") != std::string::npos);
    CHECK(data.value("html", "").rfind("<h1>", 0) == 0);
    CHECK(data.value("word_count", 0) > 20);
    CHECK(data.value("provider", "") == "openai");
    CHECK(data.value("model", "") == "gpt-4o-mini");

    const auto calls = s.api_calls();
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["body"].value("model", "") == "gpt-4o-mini");
    CHECK(calls[0]["body"]["messages"].dump().find("Why durable queues matter") !=
          std::string::npos);
    CHECK(calls[0]["headers"].value("idempotency-key", "") == job_id);

    const auto list = stack.request("GET", "/v1/articles", nullptr, key);
    check_success_envelope(list, 200);
    CHECK(list.json["pagination"].value("total", 0) == 1);
    const auto other = stack.create_tenant("other");
    check_not_found(stack.request("GET", "/v1/articles/" + id, nullptr, other.test_key));
    check_success_envelope(stack.request("DELETE", "/v1/articles/" + id, nullptr, key), 200);
    check_not_found(stack.request("GET", "/v1/articles/" + id, nullptr, key));
}

TEST_CASE("a rate-limited provider is waited for and the article is written once",
          "[e2e][articles]") {
    ArticleStack s;
    auto& stack = s.stack;
    const auto& key = stack.tenant().test_key;
    s.openai.control("POST", "/_control/behaviour",
                     {{"mode", "rate_limit"}, {"count", 1}, {"retry_after", 1}});
    const auto accepted = submit_article(stack, key, {{"prompt", "A note on backoff."}});
    const auto job = wait_for_terminal_job(stack, key, accepted["data"].value("job_id", ""),
                                           std::chrono::seconds(60));
    REQUIRE(job);
    INFO(job->dump());
    CHECK(job->value("status", "") == "completed");
    CHECK(job->value("attempts", 0) == 2);
    const auto calls = s.api_calls();
    REQUIRE(calls.size() == 2);
    CHECK(calls[0]["headers"].value("idempotency-key", "") ==
          calls[1]["headers"].value("idempotency-key", ""));
}

TEST_CASE("a provider refusal fails the article with the provider's reason and refunds the charge",
          "[e2e][articles]") {
    ArticleStack s(kPaidConfig);
    auto& stack = s.stack;
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "1");
    s.openai.control("POST", "/_control/behaviour", {{"mode", "refuse"}, {"count", 5}});
    const auto accepted = submit_article(stack, tenant.live_key, {{"topic", "Anything at all"}});
    CHECK(accepted["usage"].value("cost", "") == "0.5000");
    const auto job =
        wait_for_terminal_job(stack, tenant.live_key, accepted["data"].value("job_id", ""));
    REQUIRE(job);
    INFO(job->dump());
    CHECK(job->value("status", "") == "failed");
    CHECK((*job)["error"]["details"].value("code", "") == "CONTENT_POLICY_VIOLATION");
    CHECK((*job)["error"]["details"].value("retryable", true) == false);
    CHECK(s.api_calls().size() == 1);
    CHECK(balance_total(stack, tenant.live_key) == "1.0000");
    const auto article = stack.request("GET", "/v1/articles/" + accepted["data"].value("id", ""),
                                       nullptr, tenant.live_key);
    check_success_envelope(article, 200);
    CHECK(article.json["data"].value("status", "") == "failed");
    CHECK(article.json["data"]["error"].is_object());
}

TEST_CASE("articles that cannot be written are refused before any charge", "[e2e][articles]") {
    StackOptions options = without_worker();
    ArticleStack s(
        kPaidConfig + "\n[content_policy]\nblocked_patterns = \"\"\"\nfree\\\\s+money\n\"\"\"\n",
        options);
    auto& stack = s.stack;
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "1");
    const auto& key = tenant.live_key;

    const auto empty =
        stack.request("POST", "/v1/articles/generate", nlohmann::json::object(), key);
    check_error_envelope(empty, 422, "VALIDATION_ERROR");
    CHECK(empty.json["error"]["details"]["fields"].contains("topic"));

    const auto bad = stack.request(
        "POST", "/v1/articles/generate",
        {{"topic", "x"}, {"length", "epic"}, {"keywords", {1}}, {"tone", "angry"}}, key);
    check_error_envelope(bad, 422, "VALIDATION_ERROR");
    for (const auto* field : {"length", "keywords", "tone"})
        CHECK(bad.json["error"]["details"]["fields"].contains(field));

    const auto model =
        stack.request("POST", "/v1/articles/generate", {{"topic", "x"}, {"model", "gpt-9"}}, key);
    check_error_envelope(model, 422, "MODEL_NOT_AVAILABLE");
    CHECK(model.json["error"]["details"]["available"] == nlohmann::json{"gpt-4o-mini", "gpt-4o"});

    const auto blocked = stack.request("POST", "/v1/articles/generate",
                                       {{"topic", "How to get FREE money fast"}}, key);
    check_error_envelope(blocked, 422, "CONTENT_POLICY_VIOLATION");
    CHECK(blocked.json["error"]["details"].value("field", "") == "topic");

    CHECK(balance_total(stack, key) == "1.0000");
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 0);
}

TEST_CASE("without a text provider an article is refused naming the setting to configure",
          "[e2e][articles]") {
    Stack stack(api_only());
    const auto r = stack.request("POST", "/v1/articles/generate", {{"topic", "Anything"}},
                                 stack.tenant().test_key);
    check_error_envelope(r, 422, "MODEL_NOT_AVAILABLE");
    CHECK(r.json["error"]["details"].value("setting", "") == "generation.text");
    CHECK(r.json["error"].value("message", "").find("SQUAWK_GENERATION_TEXT") != std::string::npos);
    CHECK(stack.count("SELECT COUNT(*) FROM creations") == 0);
}
