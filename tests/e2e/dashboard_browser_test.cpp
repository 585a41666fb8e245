// The dashboard in a real browser: Debian's headless Chromium, driven by the flows in
// tests/browser/ through the real stack, with an accessibility check and a screenshot of each page
// (build/browser-screenshots/).
#include "tests/e2e/dashboard_browsing.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;

TEST_CASE("in headless Chromium a developer signs in, creates, uses and revokes a key, signs out") {
    Stack stack(api_only());
    create_dashboard_user(stack,
                          {"--workspace", std::to_string(stack.tenant().workspace_id), "--email",
                           "dev@example.com", "--role", "developer"},
                          "correct horse battery");
    const auto result =
        run_browser_script(stack, "keys.mjs", "dev@example.com", "correct horse battery");
    INFO(result.out << result.err << stack.post_mortem());
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("checked signed-out") != std::string::npos);
}
