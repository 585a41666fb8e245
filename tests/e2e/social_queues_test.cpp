// Posting queues end to end: create, read, change and delete; the preview and the next-slot
// lookup walk the same free slots; slots held by the queue's posts are skipped; bad input and
// other workspaces' queues.
#include "common/core/db/sql_text.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/fake_platforms.hpp"
#include "tests/support/social_fixtures.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::testing;

namespace {

const nlohmann::json kEveryDay = [] {
    nlohmann::json slots = nlohmann::json::array();
    for (const char* day :
         {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}) {
        slots.push_back({{"day", day}, {"time", "09:00"}});
        slots.push_back({{"day", day}, {"time", "17:30"}});
    }
    return slots;
}();

nlohmann::json create_queue(Stack& stack, const std::string& key, const nlohmann::json& body) {
    const auto r = stack.request("POST", "/v1/social/queues", body, key);
    check_success_envelope(r, 201);
    return r.json["data"];
}

// A post of the workspace that holds `slot` of the queue.
void hold_slot(Stack& stack, long long workspace_id, long long queue_id, const std::string& slot) {
    stack.db().run([&](db::Session& s) {
        const auto now = db::time_param(time::now());
        s.execute(
            "INSERT INTO social_posts (workspace_id, status, content, content_hash, queue_id,"
            " scheduled_time, created_at, updated_at) VALUES (?, 'scheduled', 'held', 'h', ?, ?,"
            " ?, ?)",
            {workspace_id, queue_id, db::time_param(*time::parse_iso8601(slot)), now, now});
    });
}

}  // namespace

TEST_CASE("a queue is created, read, listed, changed and deleted, and other workspaces get 404") {
    Stack stack(api_only());
    const auto& key = stack.tenant().live_key;
    const auto queue = create_queue(
        stack, key,
        {{"name", "Mornings"},
         {"timezone", "Europe/Berlin"},
         {"slots",
          {{{"day", "Friday"}, {"time", "09:00"}}, {{"day", "monday"}, {"time", "09:00"}}}}});
    CHECK(queue["name"] == "Mornings");
    CHECK(queue["timezone"] == "Europe/Berlin");
    CHECK(queue["slots"] ==
          nlohmann::json::parse(
              R"([{"day":"monday","time":"09:00"},{"day":"friday","time":"09:00"}])"));
    const std::string path = "/v1/social/queues/" + std::to_string(queue["id"].get<long long>());

    const auto read = stack.request("GET", path, nullptr, key);
    check_success_envelope(read, 200);
    CHECK(read.json["data"] == queue);

    const auto listed = stack.request("GET", "/v1/social/queues?per_page=1", nullptr, key);
    check_success_envelope(listed, 200);
    CHECK(listed.json["pagination"]["total"] == 1);
    CHECK(listed.json["data"][0]["id"] == queue["id"]);

    const auto changed =
        stack.request("PATCH", path, {{"timezone", "America/New_York"}, {"slots", kEveryDay}}, key);
    check_success_envelope(changed, 200);
    CHECK(changed.json["data"]["timezone"] == "America/New_York");
    CHECK(changed.json["data"]["slots"].size() == 14);
    CHECK(changed.json["data"]["name"] == "Mornings");

    const auto other = stack.create_tenant("other");
    check_not_found(stack.request("GET", path, nullptr, other.live_key));
    check_not_found(stack.request("PATCH", path, {{"name", "x"}}, other.live_key));
    check_not_found(stack.request("DELETE", path, nullptr, other.live_key));
    check_not_found(stack.request("GET", "/v1/social/queues/abc", nullptr, key));

    check_success_envelope(stack.request("DELETE", path, nullptr, key), 200);
    check_not_found(stack.request("GET", path, nullptr, key));
    CHECK(stack.request("GET", "/v1/social/queues", nullptr, key).json["pagination"]["total"] == 0);
}

TEST_CASE("bad queue input is one 422 naming every bad field, and nothing is stored") {
    Stack stack(api_only());
    const auto& key = stack.tenant().live_key;
    const auto r = stack.request(
        "POST", "/v1/social/queues",
        {{"name", ""},
         {"timezone", "Mars/Olympus_Mons"},
         {"slots",
          {{{"day", "funday"}, {"time", "09:00"}}, {{"day", "monday"}, {"time", "24:00"}}, 7}},
         {"colour", "blue"}},
        key);
    check_error_envelope(r, 422, "VALIDATION_ERROR");
    const auto& fields = r.json["error"]["details"]["fields"];
    for (const char* field :
         {"name", "timezone", "slots[0].day", "slots[1].time", "slots[2]", "colour"})
        CHECK(fields.contains(field));
    check_error_envelope(
        stack.request("POST", "/v1/social/queues",
                      {{"name", "n"}, {"timezone", "UTC"}, {"slots", nlohmann::json::array()}},
                      key),
        422, "VALIDATION_ERROR");
    check_error_envelope(
        stack.request("POST", "/v1/social/queues", {{"name", "n"}, {"timezone", "UTC"}}, key), 422,
        "VALIDATION_ERROR");
    CHECK(stack.count("SELECT COUNT(*) FROM social_queues") == 0);
}

TEST_CASE(
    "the preview lists the next free slots in order, skipping held ones, and the next slot "
    "is its first") {
    Stack stack(api_only());
    const auto& key = stack.tenant().live_key;
    const auto queue =
        create_queue(stack, key, {{"name", "Daily"}, {"timezone", "UTC"}, {"slots", kEveryDay}});
    const std::string path = "/v1/social/queues/" + std::to_string(queue["id"].get<long long>());

    const auto preview = stack.request("GET", path + "/preview", nullptr, key);
    check_success_envelope(preview, 200);
    const auto& data = preview.json["data"];
    CHECK(data["queue_id"] == queue["id"]);
    CHECK(data["timezone"] == "UTC");
    CHECK(data["count"] == 10);
    REQUIRE(data["slots"].size() == 10);
    for (size_t i = 1; i < 10; ++i)
        CHECK(data["slots"][i - 1].get<std::string>() < data["slots"][i].get<std::string>());
    for (const auto& slot : data["slots"]) {
        const auto text = slot.get<std::string>();
        CHECK((text.substr(11, 5) == "09:00" || text.substr(11, 5) == "17:30"));
    }

    const auto next = stack.request("GET", path + "/next-slot", nullptr, key);
    check_success_envelope(next, 200);
    CHECK(next.json["data"]["slot"] == data["slots"][0]);

    // The first two slots are held by posts of the queue: the walk continues past them.
    hold_slot(stack, stack.tenant().workspace_id, queue["id"], data["slots"][0]);
    hold_slot(stack, stack.tenant().workspace_id, queue["id"], data["slots"][1]);
    const auto after = stack.request("GET", path + "/preview?count=3", nullptr, key);
    check_success_envelope(after, 200);
    CHECK(after.json["data"]["slots"] ==
          nlohmann::json::array({data["slots"][2], data["slots"][3], data["slots"][4]}));
    CHECK(stack.request("GET", path + "/next-slot", nullptr, key).json["data"]["slot"] ==
          data["slots"][2]);

    const auto many = stack.request("GET", path + "/preview?count=50", nullptr, key);
    check_success_envelope(many, 200);
    CHECK(many.json["data"]["slots"].size() == 50);
    for (const char* bad : {"0", "51", "ten"})
        check_error_envelope(
            stack.request("GET", path + "/preview?count=" + std::string(bad), nullptr, key), 422,
            "VALIDATION_ERROR");
}

TEST_CASE_METHOD(SocialApi, "posts scheduled into a queue take its free slots one after another") {
    connect_telegram_channel(stack, fake, key, -1001000000555LL);
    const auto queue =
        create_queue(stack, key, {{"name", "Daily"}, {"timezone", "UTC"}, {"slots", kEveryDay}});
    const std::string path = "/v1/social/queues/" + std::to_string(queue["id"].get<long long>());
    const auto slots =
        stack.request("GET", path + "/preview?count=2", nullptr, key).json["data"]["slots"];

    for (int i = 0; i < 2; ++i) {
        const auto r = stack.request("POST", "/v1/social/posts/schedule",
                                     {{"content", "Queued post " + std::to_string(i)},
                                      {"platforms", {"telegram"}},
                                      {"queue_id", queue["id"]}},
                                     key);
        check_success_envelope(r, 201);
        CHECK(r.json["data"]["scheduled_time"] == slots[i]);
        CHECK(r.json["data"]["queue_id"] == queue["id"]);
        CHECK(r.json["data"]["status"] == "scheduled");
    }
    CHECK(stack.request("GET", path + "/next-slot", nullptr, key).json["data"]["slot"] > slots[1]);

    const auto both = stack.request("POST", "/v1/social/posts/schedule",
                                    {{"content", "Both"},
                                     {"platforms", {"telegram"}},
                                     {"queue_id", queue["id"]},
                                     {"scheduled_time", "2030-01-01T00:00:00Z"}},
                                    key);
    check_error_envelope(both, 422, "VALIDATION_ERROR");
    CHECK(both.json["error"]["details"]["fields"].contains("queue_id"));
    const auto unknown = stack.request(
        "POST", "/v1/social/posts/schedule",
        {{"content", "Nowhere"}, {"platforms", {"telegram"}}, {"queue_id", 999999}}, key);
    check_error_envelope(unknown, 422, "VALIDATION_ERROR");
    CHECK(unknown.json["error"]["details"]["fields"].contains("queue_id"));
    CHECK(stack.count("SELECT COUNT(*) FROM social_posts") == 2);
}
