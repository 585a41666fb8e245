// Finding a message whose answer was lost among the account's recent posts: texts compare as the
// platforms give them back (X lists a link as its t.co address and escapes &, < and >), only
// posts since the send (less a minute of clock skew) count, and nothing is found without text.
#include "common/domain/social/sent_lookup.hpp"

#include <catch2/catch.hpp>

using namespace squawk;

namespace {

// A connector whose platform lists `listing` as the account's recent posts.
struct ListingConnector final : social::Connector {
    ListingConnector() : Connector(*social::find_platform("x")) {}
    std::vector<social::FieldProblem> check(social::Credentials&) const override { return {}; }
    social::Verification verify(const social::Credentials&) override { return {}; }
    social::Publication publish(const social::Target&, const social::Message&) override {
        return {};
    }
    std::optional<social::RemoteListing> list_recent(const social::Target&) override {
        return listing;
    }
    social::RemoteListing listing;
};

social::RemotePost listed(std::string id, std::string text, time::TimePoint at) {
    social::RemotePost post;
    post.external_id = std::move(id);
    post.text = std::move(text);
    post.published_at = at;
    return post;
}

social::Message with_text(std::string text) {
    social::Message m;
    m.text = std::move(text);
    return m;
}

}  // namespace

TEST_CASE("a lost post is found by its text as the platform lists it back") {
    ListingConnector x;
    const auto sent_at = time::now();
    x.listing.posts = {
        listed("2", "Fish &amp; chips &lt;3 https://t.co/AbCdEfGh12", sent_at),
        listed("1", "Our menu https://t.co/ZyXwVu9876", sent_at - std::chrono::minutes(5))};
    const auto found = social::find_sent(
        x, {}, with_text("Fish & chips <3\nhttps://squawk.example/menu"), sent_at);
    REQUIRE(found);
    CHECK(found->external_id == "2");

    // Another link in the same place is still the same text; other words are not.
    CHECK(social::find_sent(x, {}, with_text("Fish & chips <3 https://other.example/"), sent_at));
    CHECK_FALSE(social::find_sent(x, {}, with_text("Fish & chips <3"), sent_at));
    // A post older than the send (less a minute) is an earlier one with the same words.
    CHECK_FALSE(
        social::find_sent(x, {}, with_text("Our menu https://squawk.example/menu"), sent_at));
    CHECK(social::find_sent(x, {}, with_text("Our menu https://squawk.example/menu"),
                            sent_at - std::chrono::minutes(5)));
    CHECK_FALSE(social::find_sent(x, {}, with_text("  \n "), sent_at));
}
