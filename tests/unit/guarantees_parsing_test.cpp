// The parsers and rules behind the guarantees: credit amounts, the X-Profile-Id and
// X-Idempotency-Key headers, rate-limit tiers, the monthly cycle and the route properties.
#include "api/handlers/routes.hpp"
#include "api/server/request_headers.hpp"
#include "common/core/rate_limit/rate_limiter.hpp"
#include "common/domain/billing/credits.hpp"
#include "common/domain/billing/wallet.hpp"

#include <catch2/catch.hpp>

using namespace squawk;

TEST_CASE("credit amounts parse to 1/10,000 units with at most 4 fraction digits") {
    CHECK(billing::parse_credits("12.5") == 125000);
    CHECK(billing::parse_credits("0.0001") == 1);
    CHECK(billing::parse_credits("7") == 70000);
    CHECK(billing::parse_credits("1000000000") == billing::kMaxAmountUnits);
    for (const char* bad : {"", "-1", "+1", "1.", ".5", "1.23456", "1e3", " 1", "1 ", "0x10", "1,5",
                            "1000000000.0001", "99999999999"}) {
        INFO(bad);
        CHECK_FALSE(billing::parse_credits(bad));
    }
    CHECK(billing::credits_as_number(5000) == Approx(0.5));
}

TEST_CASE("a profile id header is a positive decimal integer of at most 18 digits") {
    CHECK(api::parse_profile_id("42") == 42);
    CHECK(api::parse_profile_id("999999999999999999") == 999999999999999999LL);
    for (const char* bad :
         {"", "0", "-1", "+1", "1.0", "abc", " 1", "1 ", "0x1", "1000000000000000000"}) {
        INFO(bad);
        CHECK_FALSE(api::parse_profile_id(bad));
    }
}

TEST_CASE("an idempotency key is 1 to 255 visible ASCII characters") {
    CHECK(api::is_valid_idempotency_key("a"));
    CHECK(api::is_valid_idempotency_key("order-2026-01-31:7f3a~!"));
    CHECK(api::is_valid_idempotency_key(std::string(255, 'k')));
    CHECK_FALSE(api::is_valid_idempotency_key(""));
    CHECK_FALSE(api::is_valid_idempotency_key(std::string(256, 'k')));
    CHECK_FALSE(api::is_valid_idempotency_key("with space"));
    CHECK_FALSE(api::is_valid_idempotency_key("caf\xc3\xa9"));
    CHECK_FALSE(api::is_valid_idempotency_key(std::string("nul\0x", 5)));
}

TEST_CASE(
    "the rate tier follows the connected-account count and the analytics ceiling is a "
    "sixtieth of it, at least 6") {
    const config::RateLimitSettings s;
    CHECK(rate_limit::tier_limit(s, 0) == 60);
    CHECK(rate_limit::tier_limit(s, 2) == 60);
    CHECK(rate_limit::tier_limit(s, 3) == 600);
    CHECK(rate_limit::tier_limit(s, 2000) == 600);
    CHECK(rate_limit::tier_limit(s, 2001) == 1200);
    CHECK(rate_limit::per_second_ceiling(60) == 6);
    CHECK(rate_limit::per_second_ceiling(600) == 10);
    CHECK(rate_limit::per_second_ceiling(1200) == 20);
}

TEST_CASE("the monthly cycle ends at the first instant of the next UTC month") {
    const auto jan = time::parse_iso8601("2026-01-31T23:59:59Z").value();
    CHECK(time::format_iso8601(billing::next_monthly_reset(jan)) == "2026-02-01T00:00:00.000000Z");
    const auto dec = time::parse_iso8601("2026-12-15T10:00:00Z").value();
    CHECK(time::format_iso8601(billing::next_monthly_reset(dec)) == "2027-01-01T00:00:00.000000Z");
}

TEST_CASE(
    "route properties: job polls are unlimited, speech is billable, profile routes and "
    "webhook routes refuse X-Profile-Id") {
    for (const auto& route : api::route_table()) {
        INFO(route.method << " " << route.pattern);
        CHECK(route.rate_limited == !(route.pattern == "/v1/jobs/{job_id}" ||
                                      route.access.kind == api::Access::Kind::open));
        if (route.pattern.starts_with("/v1/profiles")) CHECK_FALSE(route.accepts_profile);
        if (route.pattern == "/v1/audio/text-to-speech")
            CHECK(route.billable_as == "text_to_speech");
    }
    constexpr auto webhook =
        api::Route::get("/v1/webhooks", api::Access::needs("webhooks:read"), nullptr);
    CHECK_FALSE(webhook.accepts_profile);
    constexpr auto other = api::Route::get("/v1/jobs", api::Access::needs("jobs:read"), nullptr);
    CHECK(other.accepts_profile);
}
