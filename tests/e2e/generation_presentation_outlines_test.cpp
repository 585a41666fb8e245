// Presentations outlined by the text provider from a topic: the outline the provider answers
// becomes the deck's slides (a title slide, then one per outlined slide, in the PPTX and the PDF);
// an outline of the wrong shape fails the job and refunds it; without a text provider the call is
// refused naming the setting.
#include "tests/e2e/deck_files.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/fake_server.hpp"
#include "tests/support/process.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace squawk::testing;

namespace {

constexpr const char* kOutlineProviderKey = "sk-test-outlines";

struct OutlineStack {
    explicit OutlineStack(const std::string& extra = "")
        : stack([&] {
              StackOptions options;
              options.extra_config =
                  "[generation]\ntext = \"openai\"\n\n[providers.openai]\n"
                  "base_url = \"" +
                  openai.url("/v1") + "\"\napi_key = \"" + kOutlineProviderKey +
                  "\"\ntimeout_seconds = 5\n\n" + extra;
              return options;
          }()) {}

    void next_answers(const nlohmann::json& contents) {
        openai.control("POST", "/_control/completions", {{"contents", contents}});
    }

    FakeServer openai{"fake_openai", {"--api-key", kOutlineProviderKey}};
    Stack stack;
};

std::string outline(size_t slides) {
    nlohmann::json listed = nlohmann::json::array();
    for (size_t i = 1; i <= slides; ++i)
        listed.push_back({{"title", "Part " + std::to_string(i)},
                          {"bullets", {"First point", "Second point", "Third point"}}});
    return nlohmann::json{{"title", "Tide pools up close"}, {"slides", listed}}.dump();
}

}  // namespace

TEST_CASE("a presentation from a topic has the provider's outlined slides in its PPTX and PDF",
          "[e2e][presentations]") {
    OutlineStack s;
    auto& stack = s.stack;
    const auto& key = stack.tenant().test_key;
    s.next_answers({"```json\n" + outline(3) + "\n```"});
    const auto deck = completed_creation(stack, key, "presentations",
                                         {{"topic", "Tide pools"}, {"slide_count", 3}});
    CHECK(deck.value("title", "") == "Tide pools up close");
    CHECK(deck.value("topic", "") == "Tide pools");
    CHECK(deck.value("slide_count", 0) == 4);  // the title slide and three outlined ones

    const auto pptx =
        saved(stack, "outlined.pptx", downloaded_media(stack, key, media_of(deck, "main")));
    const auto listed = run_command({"unzip", "-l", pptx});
    REQUIRE(listed.exit_code == 0);
    for (int n = 1; n <= 4; ++n)
        CHECK(listed.out.find("ppt/slides/slide" + std::to_string(n) + ".xml") !=
              std::string::npos);
    CHECK(listed.out.find("ppt/slides/slide5.xml") == std::string::npos);
    const auto slide = run_command({"unzip", "-p", pptx, "ppt/slides/slide4.xml"});
    CHECK(slide.out.find("Part 3") != std::string::npos);
    CHECK(slide.out.find("Third point") != std::string::npos);

    const auto pdf =
        saved(stack, "outlined.pdf", downloaded_media(stack, key, media_of(deck, "pdf")));
    const auto info = run_command({"pdfinfo", pdf});
    REQUIRE(info.exit_code == 0);
    const auto pages = info.out.find("Pages:");
    REQUIRE(pages != std::string::npos);
    CHECK(std::stoi(info.out.substr(pages + 6)) == 4);

    const auto calls = s.openai.control("GET", "/_control/requests");
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["body"]["messages"][0].value("content", "").find("exactly 3 slides") !=
          std::string::npos);
}

TEST_CASE("a malformed outline is asked for once more, then fails the presentation and refunds it",
          "[e2e][presentations]") {
    OutlineStack s("[billing]\nmonthly_allowance = 0\n\n[billing.prices]\npresentation = 0.5\n");
    auto& stack = s.stack;
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "10");
    const auto before = balance_total(stack, tenant.live_key);
    s.next_answers({"Sure! Here is an outline: 1. Tide pools", outline(2)});
    const auto accepted = stack.request(
        "POST", "/v1/presentations/generate",
        {{"title", "Pools"}, {"topic", "Tide pools"}, {"slide_count", 3}}, tenant.live_key);
    check_success_envelope(accepted, 202);
    const auto job =
        wait_for_terminal_job(stack, tenant.live_key, accepted.json["data"].value("job_id", ""),
                              std::chrono::seconds(60));
    REQUIRE(job);
    INFO(job->dump());
    CHECK(job->value("status", "") == "failed");
    CHECK(job->value("attempts", 0) == 2);
    CHECK(job->dump().find("the outline has 2 slides instead of 3") != std::string::npos);
    CHECK(balance_total(stack, tenant.live_key) == before);
}

TEST_CASE("a presentation from a topic is refused without a text provider or with slides too",
          "[e2e][presentations]") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const auto missing = stack.request("POST", "/v1/presentations/generate",
                                       {{"topic", "Tide pools"}, {"slide_count", 3}}, key);
    check_error_envelope(missing, 422, "MODEL_NOT_AVAILABLE");
    CHECK(missing.json["error"]["details"].value("setting", "") == "generation.text");

    const auto both = stack.request(
        "POST", "/v1/presentations/generate",
        {{"topic", "Tide pools"}, {"slides", {{{"title", "S"}}}}, {"title", "T"}}, key);
    check_error_envelope(both, 422, "VALIDATION_ERROR");
    CHECK(both.json["error"]["details"]["fields"].contains("slides"));
    for (const int count : {0, 31}) {
        const auto r = stack.request("POST", "/v1/presentations/generate",
                                     {{"topic", "Tide pools"}, {"slide_count", count}}, key);
        check_error_envelope(r, 422, "VALIDATION_ERROR");
        CHECK(r.json["error"]["details"]["fields"].contains("slide_count"));
    }
    CHECK(stack.count("SELECT COUNT(*) FROM creations") == 0);
}
