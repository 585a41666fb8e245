// The units a paid job reserves before it runs (upper bounds from its request) and is charged for
// when it completes (whole seconds, rounded up).
#include "common/domain/billing/billable_quantity.hpp"
#include "common/domain/billing/billing_settings.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace squawk;

TEST_CASE("spoken words count whitespace-separated words, or one per 6 characters when more") {
    CHECK(billing::spoken_words("") == 0);
    CHECK(billing::spoken_words("Fifty of these are paid.") == 5);
    CHECK(billing::spoken_words(" a b\tc d \n") == 4);
    CHECK(billing::spoken_words(std::string(60, 'a')) == 10);
    // Code points, not bytes: twelve three-byte characters are two words' worth.
    std::string cjk;
    for (int i = 0; i < 12; ++i) cjk += "\xe4\xb8\xad";
    CHECK(billing::spoken_words(cjk) == 2);
}

TEST_CASE("speech is bounded at the slower of its rate and 120 words a minute, plus a second") {
    // 5 words at 120 wpm: 2.5 s, rounded up, plus the pad.
    CHECK(billing::speech_seconds_bound("Fifty of these are paid.", 175) == 4);
    CHECK(billing::speech_seconds_bound("Fifty of these are paid.", 450) == 4);
    // A slower voice than the bound assumes is reserved at its own rate: 5 words at 80 wpm.
    CHECK(billing::speech_seconds_bound("Fifty of these are paid.", 80) == 5);
    CHECK(billing::speech_seconds_bound("Paid.", 175) == 2);
    CHECK(billing::speech_seconds_bound("", 175) == 1);
}

TEST_CASE("a video is bounded by its scenes' speech, each with its own pad") {
    const std::vector<std::string> scenes{"One two three four.", "Five six."};
    CHECK(billing::video_seconds_bound(scenes, 175) == (2 + 1) + (1 + 1));
    CHECK(billing::video_seconds_bound({}, 175) == 1);
}

TEST_CASE("a short is bounded by its clips, and measured seconds are rounded up") {
    CHECK(billing::short_seconds_bound(30, 3) == 90);
    CHECK(billing::short_seconds_bound(0, 3) == 1);
    CHECK(billing::whole_seconds(3.0) == 3);
    CHECK(billing::whole_seconds(3.01) == 4);
    CHECK(billing::whole_seconds(0.2) == 1);
    CHECK(billing::whole_seconds(-1) == 1);
}

TEST_CASE("every billable operation names the unit it is priced per") {
    for (const auto operation : config::billable_operations()) {
        INFO(operation);
        const auto unit = config::price_unit(operation);
        CHECK((unit == "item" || unit == "slide" || unit == "second"));
    }
    CHECK(config::price_unit("presentation") == "slide");
    CHECK(config::price_unit("video") == "second");
    CHECK(config::price_unit("article") == "item");
}
