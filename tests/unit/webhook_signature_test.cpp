#include "common/core/crypto/crypto.hpp"
#include "common/domain/webhooks/delivery_attempt.hpp"
#include "common/domain/webhooks/signature.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::webhooks;

TEST_CASE("the signature is t=<seconds>,v1=<HMAC-SHA256 of t.body> and a receiver verifies it") {
    const std::string body = R"({"id":"evt_1","event":"webhook.test"})";
    const std::string header = signature_header({"whsec_a"}, 1700000000, body);
    CHECK(header == "t=1700000000,v1=" + crypto::hmac_sha256_hex("whsec_a", "1700000000." + body));
    CHECK(verify_signature(header, "whsec_a", body, 1700000010, 300));
    CHECK_FALSE(verify_signature(header, "whsec_b", body, 1700000010, 300));
    CHECK_FALSE(verify_signature(header, "whsec_a", body + " ", 1700000010, 300));
    CHECK_FALSE(verify_signature(header, "whsec_a", body, 1700001000, 300));
    CHECK_FALSE(verify_signature("v1=abc", "whsec_a", body, 1700000000, 300));
}

TEST_CASE("during a rotation one v1= per valid secret lets either secret verify") {
    const std::string header = signature_header({"new", "old"}, 1700000000, "{}");
    CHECK(verify_signature(header, "new", "{}", 1700000000, 60));
    CHECK(verify_signature(header, "old", "{}", 1700000000, 60));
    CHECK_FALSE(verify_signature(header, "other", "{}", 1700000000, 60));
}

TEST_CASE("secrets sealed at rest open only with their key and detect tampering") {
    const std::string key = crypto::random_bytes(32);
    const std::string sealed = crypto::seal(key, "whsec_secret");
    CHECK(sealed.find("whsec") == std::string::npos);
    CHECK(crypto::open(key, sealed) == "whsec_secret");
    CHECK(crypto::seal(key, "whsec_secret") != sealed);
    CHECK_THROWS(crypto::open(crypto::random_bytes(32), sealed));
    std::string altered = sealed;
    altered[20] = altered[20] == 'A' ? 'B' : 'A';  // inside the tag
    CHECK_THROWS(crypto::open(key, altered));
    CHECK(crypto::from_hex("00ff10") == std::string("\x00\xff\x10", 3));
}

TEST_CASE("Retry-After is read as seconds or as an HTTP date") {
    const auto now = time::now();
    CHECK(parse_retry_after("120", now) == 120);
    CHECK_FALSE(parse_retry_after("soon", now));
    CHECK(parse_retry_after("Thu, 01 Jan 1970 00:00:00 GMT", now) == 0);
}

TEST_CASE("failed attempts back off 2, 4, 8, 16 minutes, then dead-letter after the 5th") {
    config::WebhookSettings settings;
    ClaimedDelivery d;
    d.event_name = "post.published";
    d.max_attempts = 5;
    http::Response failed;
    failed.status = 500;
    const double minutes[] = {2, 4, 8, 16};
    for (int attempt = 1; attempt <= 4; ++attempt) {
        d.attempts = attempt;
        const auto before = time::now();
        const auto r = judge(d, before, failed, "", settings);
        CHECK(r.status == webhooks::DeliveryStatus::retrying);
        const auto wait =
            std::chrono::duration_cast<std::chrono::seconds>(r.next_attempt_at - before);
        CHECK(std::abs(wait.count() - minutes[attempt - 1] * 60) <= 1);
    }
    d.attempts = 5;
    CHECK(judge(d, time::now(), failed, "", settings).status ==
          webhooks::DeliveryStatus::dead_letter);

    http::Response limited;
    limited.status = 429;
    limited.headers = {{"retry-after", "7200"}};
    d.attempts = 1;
    const auto before = time::now();
    const auto r = judge(d, before, limited, "", settings);
    CHECK(std::chrono::duration_cast<std::chrono::seconds>(r.next_attempt_at - before).count() <=
          3600);
    CHECK(std::chrono::duration_cast<std::chrono::seconds>(r.next_attempt_at - before).count() >=
          3599);

    d.event_name = "webhook.test";
    CHECK(judge(d, time::now(), failed, "", settings).status == webhooks::DeliveryStatus::failed);
    http::Response ok;
    ok.status = 204;
    CHECK(judge(d, time::now(), ok, "", settings).status == webhooks::DeliveryStatus::delivered);
}
