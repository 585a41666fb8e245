// Articles grounded on a web page: the worker fetches the page (a loopback page of the fake), and
// the provider's prompt carries its readable text; a page that cannot be used fails the job for
// good and refunds it; bad URLs are refused up front.
#include "tests/support/api_checks.hpp"
#include "tests/support/fake_server.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;

namespace {

constexpr const char* kSourcesProviderKey = "sk-test-sources";

struct SourceStack {
    explicit SourceStack(const std::string& extra = "", StackOptions options = {})
        : stack([&] {
              options.extra_config =
                  "[generation]\ntext = \"openai\"\n\n[providers.openai]\n"
                  "base_url = \"" +
                  openai.url("/v1") + "\"\napi_key = \"" + kSourcesProviderKey +
                  "\"\ntimeout_seconds = 5\n\n" + extra;
              return options;
          }()) {}

    void page(const std::string& path, const std::string& body,
              const std::string& type = "text/html; charset=utf-8") {
        openai.control("POST", "/_control/pages",
                       {{"path", path}, {"body", body}, {"content_type", type}});
    }
    nlohmann::json prompts() {
        nlohmann::json sent = nlohmann::json::array();
        for (const auto& r : openai.control("GET", "/_control/requests"))
            if (r.value("path", "") == "/v1/chat/completions")
                sent.push_back(r["body"]["messages"].back().value("content", ""));
        return sent;
    }

    FakeServer openai{"fake_openai", {"--api-key", kSourcesProviderKey}};
    Stack stack;
};

const std::string kPage = R"(<html><head><title>Tide pools</title>
<script>var secret = "do not send";</script><style>body { color: red }</style></head>
<body><nav>Home | About</nav><h1>Life between tides</h1>
<p>Hermit crabs &amp; anemones share the   rock pools at low tide.</p></body></html>)";

}  // namespace

TEST_CASE("an article grounded on a URL sends the page's readable text to the provider",
          "[e2e][articles]") {
    SourceStack s;
    auto& stack = s.stack;
    const auto& key = stack.tenant().test_key;
    s.page("/pages/tides", kPage);
    const auto article =
        completed_creation(stack, key, "articles",
                           {{"topic", "Tide pools"}, {"source_url", s.openai.url("/pages/tides")}});
    CHECK(article.value("source_url", "") == s.openai.url("/pages/tides"));
    const auto prompts = s.prompts();
    REQUIRE(prompts.size() == 1);
    const std::string prompt = prompts[0];
    CHECK(prompt.find("Hermit crabs & anemones share the rock pools at low tide.") !=
          std::string::npos);
    CHECK(prompt.find("Life between tides") != std::string::npos);
    CHECK(prompt.find("do not send") == std::string::npos);
    CHECK(prompt.find("Home | About") == std::string::npos);
    CHECK(prompt.find("<p>") == std::string::npos);
}

TEST_CASE("an article whose source page cannot be used fails for good and is refunded",
          "[e2e][articles]") {
    SourceStack s("[billing]\nmonthly_allowance = 0\n\n[billing.prices]\narticle = 0.5\n");
    auto& stack = s.stack;
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "1");
    s.page("/pages/binary", "GIF89a not a page", "image/gif");
    for (const auto& path : {"/pages/missing", "/pages/binary"}) {
        const auto accepted = stack.request(
            "POST", "/v1/articles/generate",
            {{"topic", "Anything"}, {"source_url", s.openai.url(path)}}, tenant.live_key);
        check_success_envelope(accepted, 202);
        const auto job = wait_for_terminal_job(stack, tenant.live_key,
                                               accepted.json["data"].value("job_id", ""));
        REQUIRE(job);
        INFO(job->dump());
        CHECK(job->value("status", "") == "failed");
        CHECK(job->value("attempts", 0) == 1);
        CHECK((*job)["error"]["details"].value("code", "") == "SOURCE_UNREACHABLE");
        CHECK(job->dump().find("SOURCE_UNREACHABLE: the source page") != std::string::npos);
    }
    CHECK(s.prompts().empty());
    CHECK(balance_total(stack, tenant.live_key) == "1.0000");
}

TEST_CASE("an article source URL that is not an http URL or comes with source text is refused",
          "[e2e][articles]") {
    SourceStack s("", without_worker());
    auto& stack = s.stack;
    const auto& key = stack.tenant().test_key;
    for (const nlohmann::json& body :
         {nlohmann::json{{"topic", "x"}, {"source_url", "ftp://example.com/page"}},
          nlohmann::json{{"topic", "x"}, {"source_url", "not a url"}},
          nlohmann::json{{"topic", "x"}, {"source_url", "https://" + std::string(2000, 'a')}},
          nlohmann::json{
              {"topic", "x"}, {"source_url", "https://example.com/"}, {"source_text", "Text"}}}) {
        const auto r = stack.request("POST", "/v1/articles/generate", body, key);
        INFO(r.body);
        check_error_envelope(r, 422, "VALIDATION_ERROR");
        CHECK(r.json["error"]["details"]["fields"].contains("source_url"));
    }
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 0);
}
