// A deck outlined by a text provider: the request's two forms survive the job payload, the chat
// asks for the exact JSON shape, and only an answer of exactly that shape becomes slides.
#include "common/domain/generation/presentation_outline.hpp"

#include <catch2/catch.hpp>

using namespace squawk::generation;

namespace {

nlohmann::json outline_json(size_t slides, size_t bullets = 3) {
    nlohmann::json listed = nlohmann::json::array();
    for (size_t i = 0; i < slides; ++i) {
        nlohmann::json points = nlohmann::json::array();
        for (size_t b = 0; b < bullets; ++b)
            points.push_back("Point " + std::to_string(b + 1) + " of slide " +
                             std::to_string(i + 1));
        listed.push_back({{"title", "Slide " + std::to_string(i + 1)}, {"bullets", points}});
    }
    return {{"title", "Tide pools"}, {"slides", listed}};
}

std::string failure(const std::string& answer, size_t slides) {
    try {
        parse_outline(answer, slides);
    } catch (const MalformedOutline& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("a topic presentation request survives the job payload and bad payloads are refused",
          "[unit][generation]") {
    PresentationRequest r;
    r.topic = "Tide pools";
    r.slide_count = 3;
    r.theme = PresentationTheme::dark;
    const auto back = PresentationRequest::from_json(r.to_json());
    CHECK(back.topic == "Tide pools");
    CHECK(back.slide_count == 3);
    CHECK(back.title.empty());
    CHECK(back.slides.empty());
    CHECK(back.theme == PresentationTheme::dark);

    auto payload = r.to_json();
    payload["slide_count"] = 31;
    CHECK_THROWS_AS(PresentationRequest::from_json(payload), std::invalid_argument);
    payload["slide_count"] = 2;
    payload["slides"] = nlohmann::json::array({{{"title", "x"}}});
    CHECK_THROWS_AS(PresentationRequest::from_json(payload), std::invalid_argument);
    CHECK_THROWS_AS(PresentationRequest::from_json({{"theme", "light"}}), std::invalid_argument);
}

TEST_CASE("the outline chat asks for the JSON shape and the slide count", "[unit][generation]") {
    const auto messages = outline_messages("tide pools", "Life between tides", 4);
    REQUIRE(messages.size() == 2);
    CHECK(messages[0].role == "system");
    CHECK(messages[0].content.find("exactly 4 slides") != std::string::npos);
    CHECK(messages[0].content.find("\"bullets\"") != std::string::npos);
    CHECK(messages[1].role == "user");
    CHECK(messages[1].content.find("tide pools") != std::string::npos);
    CHECK(messages[1].content.find("Life between tides") != std::string::npos);
}

TEST_CASE("an outline answer becomes its title and slides, with or without a code fence",
          "[unit][generation]") {
    const auto plain = parse_outline(outline_json(3, 4).dump(), 3);
    CHECK(plain.title == "Tide pools");
    REQUIRE(plain.slides.size() == 3);
    CHECK(plain.slides[2].title == "Slide 3");
    CHECK(plain.slides[2].bullets.size() == 4);
    CHECK(plain.slides[0].bullets[1] == "Point 2 of slide 1");
    CHECK(plain.slides[0].image_media_id.empty());

    const auto fenced = parse_outline("```json\n" + outline_json(2).dump(2) + "\n```\n", 2);
    CHECK(fenced.slides.size() == 2);
    auto extra = outline_json(1);
    extra["notes"] = "ignored";
    CHECK(parse_outline(extra.dump(), 1).slides.size() == 1);
}

TEST_CASE("an outline of another shape is malformed and says what is wrong", "[unit][generation]") {
    CHECK(failure("Here is your outline: tide pools are great", 3) ==
          "the outline is not a JSON object");
    CHECK(failure(outline_json(2).dump(), 3) == "the outline has 2 slides instead of 3");
    CHECK(failure(outline_json(1, 2).dump(), 1) ==
          "slides[0].bullets is not a list of 3 to 5 texts");
    CHECK(failure(outline_json(1, 6).dump(), 1) ==
          "slides[0].bullets is not a list of 3 to 5 texts");

    auto no_title = outline_json(1);
    no_title.erase("title");
    CHECK(failure(no_title.dump(), 1) == "title is not text");
    auto blank_bullet = outline_json(1);
    blank_bullet["slides"][0]["bullets"][1] = "   ";
    CHECK(failure(blank_bullet.dump(), 1) == "slides[0].bullets[1] is empty");
    auto number_bullet = outline_json(1);
    number_bullet["slides"][0]["bullets"][2] = 7;
    CHECK(failure(number_bullet.dump(), 1) == "slides[0].bullets[2] is not text");
    auto long_title = outline_json(1);
    long_title["slides"][0]["title"] = std::string(kMaxSlideTitleChars + 1, 'x');
    CHECK(failure(long_title.dump(), 1) == "slides[0].title is longer than 200 characters");
    CHECK(failure(R"({"title": "x", "slides": {}})", 1) == "slides is not a list");
}
