// Hostile webhook targets: refused with 422 and the reason when saved, and refused again at
// delivery time when an endpoint's target turns hostile later (the receiver sees nothing).
#include "common/core/net/target_url.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/fake_receiver.hpp"
#include "tests/support/webhook_checks.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

using namespace squawk;
using namespace squawk::testing;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> hostile_urls(int port) {
    const std::string p = ":" + std::to_string(port);
    std::vector<std::string> urls = {
        "http://example.com/hook",  // plain http
        "ftp://example.com/hook",
        "https://127.0.0.1" + p + "/h",
        "https://localhost" + p + "/h",
        "https://LOCALHOST" + p + "/h",
        "https://api.localhost/h",
        "https://127.1" + p + "/h",
        "https://2130706433" + p + "/h",
        "https://0x7f000001" + p + "/h",
        "https://0x7f.0.0.1" + p + "/h",
        "https://0177.0.0.1" + p + "/h",
        "https://017700000001" + p + "/h",
        "https://127.0.0.1." + p + "/h",
        "https://0.0.0.0" + p + "/h",
        "https://0/h",
        "https://10.0.0.1/h",
        "https://172.16.5.4/h",
        "https://192.168.1.1/h",
        "https://100.64.0.1/h",
        "https://169.254.169.254/latest/meta-data/",
        "https://169.254.10.10/h",
        "https://100.100.100.200/h",
        "https://224.0.0.1/h",
        "https://255.255.255.255/h",
        "https://[::1]" + p + "/h",
        "https://[::]/h",
        "https://[::ffff:127.0.0.1]" + p + "/h",
        "https://[::ffff:7f00:1]" + p + "/h",
        "https://[::ffff:169.254.169.254]/h",
        "https://[fe80::1]/h",
        "https://[fc00::1]/h",
        "https://[fd00:ec2::254]/h",
        "https://[ff02::1]/h",
        "https://[64:ff9b::a00:1]/h",
        "https://[2002:7f00:1::]/h",
        "https://user:pass@example.com/h",
        "https://example.com/h#fragment",
        "https://256.1.1.1/h",
        "https:// example.com/h",
        "https://exa mple.com/h",
        "https://%6c%6f%63%61%6c%68%6f%73%74/h",
        "https:/example.com/h",
        "https://[::1/h",
        "https://example.com:99999/h",
        "https://no-such-host.invalid/h",
    };
    // A name this machine resolves to one of its own addresses (here /etc/hosts sends it to
    // loopback), unless it happens to be public.
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0 && host[0]) {
        try {
            net::check_target(std::string("https://") + host + "/h", true);
            const auto t = net::check_target(std::string("https://") + host + "/h", true);
            if (net::non_public_reason(t.address))
                urls.push_back(std::string("https://") + host + p + "/h");
        } catch (const net::TargetRefused&) {
        }
    }
    return urls;
}

}  // namespace

TEST_CASE("hostile webhook URLs are refused at save with 422 and the reason", "[e2e][webhooks]") {
    auto options = webhook_stack_options();
    options.allow_private_targets = false;
    Stack stack(options);
    const auto urls = hostile_urls(8443);
    REQUIRE(urls.size() >= 30);
    for (const auto& url : urls) {
        INFO(url);
        const auto r =
            stack.request("POST", "/v1/webhooks", {{"url", url}, {"events", {"review.new"}}},
                          stack.tenant().test_key);
        check_error_envelope(r, 422, "VALIDATION_ERROR");
        CHECK_FALSE(r.json["error"]["details"]["fields"].value("url", "").empty());
    }
    CHECK(stack.count("SELECT COUNT(*) FROM webhook_endpoints") == 0);
    const auto r = stack.request("POST", "/v1/webhooks",
                                 {{"url", "https://169.254.169.254/"}, {"events", {"review.new"}}},
                                 stack.tenant().test_key);
    CHECK(r.json["error"]["details"]["fields"]["url"].get<std::string>().find("metadata") !=
          std::string::npos);
}

TEST_CASE(
    "targets that turned hostile after saving are refused at delivery and the receiver sees "
    "nothing",
    "[e2e][webhooks]") {
    auto options = webhook_stack_options(0.0005);
    options.allow_private_targets = false;
    options.extra_config = webhook_config(120.0, 1000);
    Stack stack(options);
    FakeReceiver receiver;
    const auto urls = hostile_urls(receiver.port());
    // Saved as they would have been when their names still pointed somewhere public.
    stack.db().run([&](db::Session& s) {
        int i = 0;
        for (const auto& url : urls)
            s.execute(
                "INSERT INTO webhook_endpoints (public_id, workspace_id, url, events, secret_enc,"
                " status, created_at, updated_at) VALUES (?, ?, ?, '[\"review.new\"]', 'x',"
                " 'active', NOW(6), NOW(6))",
                {"wh_hostile" + std::to_string(i++), stack.tenant().workspace_id, url});
    });
    const auto event = emit_event(stack, stack.tenant().workspace_id, "review.new", {});
    const long long n = static_cast<long long>(urls.size());
    const bool all_dead =
        Stack::wait_until([&] { return deliveries_in(stack, event, "dead_letter") == n; }, 30s);
    if (!all_dead) FAIL(stack.post_mortem());
    CHECK(receiver.count() == 0);
    CHECK(
        stack.count("SELECT COUNT(*) FROM webhook_attempts WHERE error LIKE 'target refused:%'") ==
        5 * n);
}
