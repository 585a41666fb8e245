// Posts sent to a queue take its free slots one after another, in the queue's time zone and
// across a daylight-saving change, and two concurrent takers never share a slot.
#include "common/core/db/sql_text.hpp"
#include "common/domain/social/queue_service.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <thread>

using namespace squawk;
using namespace squawk::social;

namespace {

// Takes the queue's next slot after `not_before` and holds it with a post, in one transaction.
time::TimePoint take(db::MysqlPool& pool, long long ws, long long queue_id,
                     time::TimePoint not_before) {
    return pool.transaction([&](db::Session& s) {
        const auto slot = QueueService::take_next_slot(s, ws, queue_id, not_before);
        const auto now = db::time_param(time::now());
        s.execute(
            "INSERT INTO social_posts (workspace_id, status, content, content_hash, queue_id,"
            " scheduled_time, created_at, updated_at) VALUES (?, 'scheduled', 'c', 'h', ?, ?, ?,"
            " ?)",
            {ws, queue_id, db::time_param(slot), now, now});
        return slot;
    });
}

}  // namespace

TEST_CASE("posts sent to a New York queue take successive slots across the spring-forward day") {
    testing::TestDatabase db;
    const auto [ws, queue_id] = db.pool().run([](db::Session& s) {
        const long long w = testing::insert_workspace(s);
        PostingQueue q;
        q.workspace_id = w;
        q.name = "nights";
        q.timezone = "America/New_York";
        q.slots = {{5, 2 * 60 + 30}, {6, 2 * 60 + 30}};  // Saturday and Sunday 02:30
        return std::pair(w, QueueRepository::insert(s, q).id);
    });
    const auto start = *time::parse_iso8601("2027-03-12T00:00:00Z");
    std::vector<std::string> taken;
    for (int i = 0; i < 4; ++i)
        taken.push_back(time::format_iso8601(take(db.pool(), ws, queue_id, start)));
    // 2027-03-14 02:30 does not exist in New York (02:00 EST -> 03:00 EDT): it falls at 07:00Z.
    CHECK(taken ==
          std::vector<std::string>{"2027-03-13T07:30:00.000000Z", "2027-03-14T07:00:00.000000Z",
                                   "2027-03-20T06:30:00.000000Z", "2027-03-21T06:30:00.000000Z"});
}

TEST_CASE("concurrent posts sent to one queue never take the same slot") {
    testing::TestDatabase db;
    const auto [ws, queue_id] = db.pool().run([](db::Session& s) {
        const long long w = testing::insert_workspace(s);
        PostingQueue q;
        q.workspace_id = w;
        q.name = "busy";
        q.timezone = "UTC";
        for (int day = 0; day < 7; ++day) q.slots.push_back({day, 12 * 60});
        return std::pair(w, QueueRepository::insert(s, q).id);
    });
    const auto start = time::now();
    std::vector<time::TimePoint> slots(16);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < slots.size(); ++i)
        threads.emplace_back([&, i] { slots[i] = take(db.pool(), ws, queue_id, start); });
    for (auto& t : threads) t.join();
    CHECK(std::set<time::TimePoint>(slots.begin(), slots.end()).size() == slots.size());
}

TEST_CASE("another workspace's queue cannot be taken from") {
    testing::TestDatabase db;
    db.pool().transaction([](db::Session& s) {
        const long long owner = testing::insert_workspace(s);
        const long long stranger = testing::insert_workspace(s);
        PostingQueue q;
        q.workspace_id = owner;
        q.name = "mine";
        q.timezone = "UTC";
        q.slots = {{0, 0}};
        const long long id = QueueRepository::insert(s, q).id;
        CHECK_THROWS(QueueService::take_next_slot(s, stranger, id, time::now()));
    });
}
