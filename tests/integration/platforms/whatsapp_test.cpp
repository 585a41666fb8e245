// The WhatsApp connector against the fake Cloud API: verification of a business phone number,
// the field a refusal names, and Graph throttling codes read as "not accepted".
#include "tests/support/connector_fixture.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::testing;
using social::FailureKind;

TEST_CASE(
    "the WhatsApp connector verifies the phone number belongs to the business account "
    "and refuses a bad token on access_token",
    "[integration][social]") {
    ConnectorFixture f;
    f.fake.add_whatsapp_phone({{"id", "1098765432"},
                               {"waba_id", "555000111"},
                               {"display_phone_number", "+1 555 0100"},
                               {"verified_name", "Squawk Support"}},
                              {"EAAG-good"});
    auto whatsapp = f.connector("whatsapp");
    const auto v = whatsapp->verify({{"waba_id", "555000111"},
                                     {"phone_number_id", "1098765432"},
                                     {"access_token", "EAAG-good"}});
    REQUIRE(v.identity);
    CHECK(v.identity->display_name == "Squawk Support");
    const auto other = whatsapp->verify({{"waba_id", "555000999"},
                                         {"phone_number_id", "1098765432"},
                                         {"access_token", "EAAG-good"}});
    REQUIRE(other.failure);
    CHECK(other.failure->field == "waba_id");
    const auto bad = whatsapp->verify({{"waba_id", "555000111"},
                                       {"phone_number_id", "1098765432"},
                                       {"access_token", "EAAG-bad"}});
    REQUIRE(bad.failure);
    CHECK(bad.failure->kind == FailureKind::refused);
    CHECK(bad.failure->field == "access_token");
    CHECK_FALSE(whatsapp->limits().can_publish);
}

TEST_CASE("a Graph API throttling code is not accepted whatever the status, with its Retry-After",
          "[integration][social]") {
    ConnectorFixture f;
    f.fake.add_whatsapp_phone({{"id", "1098765433"}, {"waba_id", "555000112"}}, {"EAAG-busy"});
    f.fake.program("/whatsapp/", {{{"status", 400},
                                   {"retry_after", "5"},
                                   {"body",
                                    {{"error",
                                      {{"message", "Application request limit reached"},
                                       {"type", "OAuthException"},
                                       {"code", 4}}}}}}});
    const auto v = f.connector("whatsapp")
                       ->verify({{"waba_id", "555000112"},
                                 {"phone_number_id", "1098765433"},
                                 {"access_token", "EAAG-busy"}});
    REQUIRE(v.failure);
    CHECK(v.failure->kind == FailureKind::not_accepted);
    CHECK(v.failure->retry_after == std::chrono::seconds(5));
    CHECK(v.failure->reason == "Application request limit reached");
    CHECK(v.failure->field == "phone_number_id");
}
