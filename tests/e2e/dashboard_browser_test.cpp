// The dashboard in a real browser: Debian's headless Chromium, driven by tests/browser/
// dashboard.mjs through the real stack, with an accessibility check and a screenshot of each page
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
    const auto& env = ServerEnv::get();
    const std::string build_dir = env.bin_dir + "/..";
    const auto result =
        run_command({"env", "SQUAWK_DASHBOARD_URL=" + stack.base_url(),
                     "SQUAWK_DASHBOARD_EMAIL=dev@example.com",
                     "SQUAWK_DASHBOARD_PASSWORD=correct horse battery",
                     "SQUAWK_SCREENSHOT_DIR=" + build_dir + "/browser-screenshots",
                     "SQUAWK_BROWSER_MODULES=" + build_dir + "/browser/node_modules", "node",
                     env.source_dir + "/tests/browser/dashboard.mjs"},
                    std::chrono::seconds(180));
    INFO(result.out << result.err << stack.post_mortem());
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("checked signed-out") != std::string::npos);
}
