// Single posts sent at the same moment share transactions (PostService::create in rounds) against
// a real database and Redis: every post is still checked and answered on its own. Identical
// contents make exactly one post, the others name it as their duplicate; a refused post refuses
// no other, whether the checks or the server refuse it; each caller's commit companion commits
// only with its own written post; and every written post has its target and publish job, linked
// both ways and queued.
#include "common/core/db/commit_companion.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/queue/job_queue.hpp"
#include "common/domain/jobs/job_types.hpp"
#include "common/domain/social/account_repository.hpp"
#include "common/domain/social/post_service.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

#include <latch>
#include <map>
#include <optional>
#include <thread>
#include <vector>

using namespace squawk;
using namespace squawk::social;
using squawk::testing::TestDatabase;

namespace {

// What one caller got back: its post's id, or the code of the error it was refused with.
struct CallerAnswer {
    std::optional<long long> post_id;
    std::optional<ErrorCode> error;
    nlohmann::json details;
    bool refused_by_server = false;  // a db::DatabaseError
};

// A workspace with one Telegram account, and callers that create posts all at once.
struct Rounds {
    TestDatabase db;
    config::RedisSettings redis_settings = [] {
        auto settings = testing::ServerEnv::get().redis;
        settings.prefix = testing::unique_name("rounds");
        return settings;
    }();
    redis::RedisPool redis{redis_settings, 2};
    PostCreations creations{64};
    long long ws = db.pool().transaction([](db::Session& s) {
        const auto id = testing::insert_workspace(s);
        AccountRepository::insert(s, id, "telegram", Identity{"-100777", "chat", ""}, "sealed");
        s.execute("CREATE TABLE companion_marks (caller INT NOT NULL PRIMARY KEY)");
        return id;
    });

    // The callers whose commit companion committed, in order.
    static std::vector<long long> marked_callers(db::Session& s) {
        std::vector<long long> marks;
        for (const auto& row : s.query("SELECT caller FROM companion_marks ORDER BY caller"))
            marks.push_back(row.integer(0));
        return marks;
    }

    // Each caller's answer to `create(input_of(caller))`, all sent at the same moment; each
    // caller's commit companion marks its number in companion_marks.
    template <class InputOf>
    std::vector<CallerAnswer> send_at_once(int count, InputOf input_of) {
        std::vector<CallerAnswer> answers(static_cast<size_t>(count));
        std::latch start(count);
        std::vector<std::thread> callers;
        for (int i = 0; i < count; ++i)
            callers.emplace_back([&, i] {
                const auto input = input_of(i);
                const db::CommitCompanion mark([i](db::Session& s) {
                    s.execute("INSERT INTO companion_marks (caller) VALUES (?)",
                              {static_cast<long long>(i)});
                });
                PostService posts(db.pool(), redis, creations);
                start.arrive_and_wait();
                auto& answer = answers[static_cast<size_t>(i)];
                try {
                    answer.post_id = posts.create(ws, false, input).post.id;
                } catch (const ApiError& e) {
                    answer.error = e.code();
                    answer.details = e.details();
                } catch (const db::DatabaseError&) {
                    answer.refused_by_server = true;
                }
            });
        for (auto& c : callers) c.join();
        return answers;
    }
};

}  // namespace

TEST_CASE_METHOD(Rounds,
                 "posts sent at the same moment are written together and each answered on its own",
                 "[integration][social][posts]") {
    // Callers 3, 7, 11 and 15 send the same words; caller 5 names a platform this build lacks:
    // eleven distinct posts and one of the same words are written.
    constexpr int kCallers = 16;
    const auto answers = send_at_once(kCallers, [](int caller) {
        PostInput input;
        input.content =
            caller % 4 == 3 ? "Same words." : "Words of caller " + std::to_string(caller);
        input.platforms = {caller == 5 ? "myspace" : "telegram"};
        return input;
    });

    std::vector<long long> same_words_posts;
    for (int i = 0; i < kCallers; ++i) {
        const auto& a = answers[static_cast<size_t>(i)];
        if (i == 5) {
            CHECK(a.error == ErrorCode::ValidationError);
        } else if (i % 4 == 3) {
            if (a.post_id) same_words_posts.push_back(*a.post_id);
        } else {
            CHECK(a.post_id.has_value());
        }
    }
    REQUIRE(same_words_posts.size() == 1);
    for (const int i : {3, 7, 11, 15}) {
        const auto& a = answers[static_cast<size_t>(i)];
        if (a.post_id) continue;
        CHECK(a.error == ErrorCode::DuplicateContent);
        CHECK(a.details["duplicate_post_id"] == same_words_posts.front());
    }

    std::vector<long long> written_callers;
    for (int i = 0; i < kCallers; ++i)
        if (answers[static_cast<size_t>(i)].post_id) written_callers.push_back(i);
    const auto stored = db.pool().run([&](db::Session& s) {
        CHECK(marked_callers(s) == written_callers);
        CHECK(s.query_one("SELECT COUNT(*) FROM social_posts")->integer(0) == 12);
        // Each target and its job point at each other.
        CHECK(s.query_one("SELECT COUNT(*) FROM social_post_targets t JOIN jobs j"
                          " ON j.id = t.job_id AND JSON_VALUE(j.payload, '$.target_id') = t.id")
                  ->integer(0) == 12);
        // Posts written by one statement share their creation time: some shared a round.
        return s
            .query_one(
                "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM social_posts"
                " GROUP BY created_at) AS rounds")
            ->integer(0);
    });
    CHECK(stored > 1);
    const auto queued = redis.run([](redis::RedisClient& r) {
        const auto pool = std::string(jobs::kPublishTarget.pool);
        return r.command({"XLEN", queue::JobQueue(r).ready_key(pool)}).integer;
    });
    CHECK(queued == 12);
}

TEST_CASE_METHOD(Rounds,
                 "a post the server refuses fails alone: the others of its round are written",
                 "[integration][social][posts]") {
    // The API bounds a link's length; below it, a link longer than its column is refused by
    // MariaDB, inside whichever round holds it.
    constexpr int kCallers = 16;
    const auto answers = send_at_once(kCallers, [](int caller) {
        PostInput input;
        input.content = "Words of caller " + std::to_string(caller);
        input.platforms = {"telegram"};
        if (caller % 4 == 0) input.link = "https://example.com/" + std::string(3000, 'a');
        return input;
    });
    std::vector<long long> written_callers;
    for (int i = 0; i < kCallers; ++i) {
        const auto& a = answers[static_cast<size_t>(i)];
        CHECK(a.refused_by_server == (i % 4 == 0));
        CHECK(a.post_id.has_value() == (i % 4 != 0));
        if (a.post_id) written_callers.push_back(i);
    }
    db.pool().run([&](db::Session& s) {
        CHECK(s.query_one("SELECT COUNT(*) FROM social_posts")->integer(0) == 12);
        CHECK(marked_callers(s) == written_callers);
    });
}
