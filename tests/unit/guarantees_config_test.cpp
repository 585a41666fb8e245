// The configuration sections of the API guarantees: prices and allowances in credits, rate-limit
// tiers, request-log retention and idempotency lifetime, validated like every other section.
#include "common/core/config/config.hpp"

#include <catch2/catch.hpp>

#include <map>

using namespace squawk;
using Catch::Matchers::Contains;

namespace {
const std::map<std::string, std::string> kNoEnvironment;
}

TEST_CASE("prices and the monthly allowance are read in credits and kept as 1/10,000 units") {
    const auto c = config::parse(
        "[billing]\ncurrency = \"EUR\"\nmonthly_allowance = 2.5\n\n"
        "[billing.prices]\ntext_to_speech = 0.0125\n",
        kNoEnvironment);
    CHECK(c.billing.currency == "EUR");
    CHECK(c.billing.monthly_allowance_units == 25000);
    CHECK(c.billing.price_units.at("text_to_speech") == 125);
}

TEST_CASE("every billable operation has a price, free unless configured") {
    const auto c = config::parse("", kNoEnvironment);
    for (const auto& op : config::billable_operations())
        CHECK(c.billing.price_units.at(std::string(op)) == 0);
    CHECK(c.idempotency.ttl_hours == 24);
    CHECK(c.rate_limits.small_per_minute == 60);
    CHECK(c.rate_limits.medium_per_minute == 600);
    CHECK(c.rate_limits.large_per_minute == 1200);
}

TEST_CASE("bad billing, rate-limit, request-log and idempotency values are refused by name") {
    CHECK_THROWS_WITH(config::parse("[billing.prices]\nteleport = 1\n", kNoEnvironment),
                      Contains("billing.prices.teleport"));
    CHECK_THROWS_WITH(config::parse("[billing.prices]\ntext_to_speech = 0.00001\n", kNoEnvironment),
                      Contains("4 fraction digits"));
    CHECK_THROWS_WITH(config::parse("[billing.prices]\ntext_to_speech = -1\n", kNoEnvironment),
                      Contains("billing.prices.text_to_speech"));
    CHECK_THROWS_WITH(config::parse("[billing]\ncurrency = \"usd\"\n", kNoEnvironment),
                      Contains("billing.currency"));
    CHECK_THROWS_WITH(config::parse("[rate_limits]\nsmall_per_minute = 0\n", kNoEnvironment),
                      Contains("rate_limits.small_per_minute"));
    CHECK_THROWS_WITH(
        config::parse("[rate_limits]\nsmall_max_accounts = 10\nmedium_max_accounts = 5\n",
                      kNoEnvironment),
        Contains("medium_max_accounts"));
    CHECK_THROWS_WITH(config::parse("[request_log]\nretention_days = 0\n", kNoEnvironment),
                      Contains("request_log.retention_days"));
    CHECK_THROWS_WITH(config::parse("[idempotency]\nttl = 24\n", kNoEnvironment),
                      Contains("idempotency.ttl"));
}

TEST_CASE("environment variables override the guarantees' settings") {
    const auto c = config::parse("", {{"SQUAWK_BILLING_PRICES_TEXT_TO_SPEECH", "0.5"},
                                      {"SQUAWK_RATE_LIMITS_ENABLED", "false"},
                                      {"SQUAWK_REQUEST_LOG_RETENTION_DAYS", "7"}});
    CHECK(c.billing.price_units.at("text_to_speech") == 5000);
    CHECK_FALSE(c.rate_limits.enabled);
    CHECK(c.request_log.retention_days == 7);
}
