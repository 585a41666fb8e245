// The publish worker's SQL against a real database: the posting-cap count under the account's
// row lock admits no more sends than the cap however many workers race, the last of several
// concurrent outcomes settles the post exactly once, and a dead-lettered publish job still ends
// its target and post. Every step takes a batch: taking targets up and recording outcomes.
#include "common/domain/social/publish_repository.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "common/domain/social/account_repository.hpp"
#include "common/domain/social/post_repository.hpp"
#include "tests/support/event_sink.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

using namespace squawk;
using namespace squawk::social;
using squawk::testing::TestDatabase;

namespace {

long long account(db::Session& s, long long ws, const std::string& external_id) {
    return AccountRepository::insert(s, ws, "telegram",
                                     Identity{external_id, "chat " + external_id, ""}, "sealed")
        .id;
}

Post post_to(db::Session& s, long long ws, const std::vector<long long>& accounts,
             const std::string& content) {
    NewPost p;
    p.workspace_id = ws;
    p.content = content;
    for (const auto id : accounts)
        p.targets.push_back(NewTarget{id, "acc_" + std::to_string(id), "telegram", time::now()});
    return PostRepository::insert(s, p);
}

}  // namespace

TEST_CASE("racing cap checks on one account admit exactly the hourly cap of sends",
          "[integration][publish]") {
    TestDatabase db;
    std::vector<PublishWork> work;
    db.pool().transaction([&](db::Session& s) {
        const auto ws = testing::insert_workspace(s);
        const auto acc = account(s, ws, "-100501");
        std::vector<long long> ids;
        for (int i = 0; i < 40; ++i)
            ids.push_back(post_to(s, ws, {acc}, "race " + std::to_string(i)).targets[0].id);
        for (auto& w : PublishRepository::take_up(s, ids)) {
            REQUIRE(w);
            work.push_back(std::move(*w));
        }
    });
    std::atomic<size_t> next{0};
    std::atomic<int> admitted{0};
    std::atomic<int> refused{0};
    std::vector<std::thread> racers;
    for (int t = 0; t < 4; ++t)
        racers.emplace_back([&] {
            for (size_t i = next++; i < work.size(); i = next++) {
                const auto& w = work[i];
                const bool ok = db.pool().transaction([&](db::Session& s) {
                    const auto now = time::now();
                    auto sends = PublishRepository::lock_recent_sends(s, {w.account.id}, now);
                    RecentSends view;
                    view.any_platform_hour = sends[w.account.id].any_platform_hour;
                    view.same_platform_day = sends[w.account.id].by_allowance["telegram"];
                    if (check_caps("telegram", view, now)) return false;
                    PublishRepository::mark_sending(s, {{w.target_id, "telegram"}}, now);
                    return true;
                });
                (ok ? admitted : refused)++;
            }
        });
    for (auto& r : racers) r.join();
    CHECK(admitted == kHourlyCap);
    CHECK(refused == 40 - kHourlyCap);
}

TEST_CASE("concurrent outcomes of one post's targets settle it once, partial, with one event",
          "[integration][publish]") {
    TestDatabase db;
    Post post;
    std::vector<PublishWork> work;
    db.pool().transaction([&](db::Session& s) {
        const auto ws = testing::insert_workspace(s);
        testing::hold_every_event(s, ws);
        std::vector<long long> accounts;
        for (int i = 0; i < 6; ++i)
            accounts.push_back(account(s, ws, "-10060" + std::to_string(i)));
        post = post_to(s, ws, accounts, "settle me");
        std::vector<long long> ids;
        for (const auto& t : post.targets) ids.push_back(t.id);
        for (auto& w : PublishRepository::take_up(s, ids)) work.push_back(std::move(*w));
    });
    std::vector<std::thread> writers;
    for (size_t i = 0; i < work.size(); ++i)
        writers.emplace_back([&, i] {
            TargetOutcome outcome{post.id, work[i].target_id, {}, nullptr, nullptr, nullptr};
            if (i % 2 == 0)
                outcome.delivery =
                    TargetOutcome::Delivery{"m" + std::to_string(i), std::nullopt, time::now()};
            else
                outcome.error = {
                    {"code", "PLATFORM_REFUSED"}, {"message", "no"}, {"detail", nullptr}};
            db.pool().transaction(
                [&](db::Session& s) { PublishRepository::record_outcomes(s, {outcome}); });
        });
    for (auto& w : writers) w.join();
    db.pool().run([&](db::Session& s) {
        const auto settled = PostRepository::find_by_id(s, post.id);
        REQUIRE(settled);
        CHECK(settled->status == social::PostStatus::partial);
        CHECK(settled->published_at);
        const auto events = s.query("SELECT name, data FROM events WHERE name LIKE 'post.%'");
        REQUIRE(events.size() == 1);
        CHECK(events[0].text(0) == "post.partial");
        const auto data = nlohmann::json::parse(events[0].text(1));
        CHECK(data["error"]["detail"].size() == 3);
        CHECK(data["error"]["detail"][0]["code"] == "PLATFORM_REFUSED");
    });
}

TEST_CASE(
    "a dead-lettered publish job fails its target with the unknown outcome once a send "
    "started",
    "[integration][publish]") {
    TestDatabase db;
    db.pool().transaction([&](db::Session& s) {
        const auto ws = testing::insert_workspace(s);
        testing::hold_every_event(s, ws);
        const auto post = post_to(s, ws, {account(s, ws, "-100701")}, "abandoned");
        const auto& target = post.targets[0];
        PublishRepository::mark_sending(s, {{target.id, "telegram"}}, time::now());
        auto job = jobs::JobRepository::find_by_id(s, *target.job_id);
        REQUIRE(job);
        fail_abandoned_target(s, *job);
        const auto settled = PostRepository::find_by_id(s, post.id);
        CHECK(settled->status == social::PostStatus::failed);
        CHECK(settled->targets[0].error["code"] == "PUBLISH_OUTCOME_UNKNOWN");
        CHECK(s.query_one("SELECT COUNT(*) FROM events WHERE name = 'post.failed'")->integer(0) ==
              1);
    });
}

TEST_CASE("taking targets up enters only open ones without a send mark and reports each as it was",
          "[integration][publish]") {
    TestDatabase db;
    db.pool().transaction([&](db::Session& s) {
        const auto ws = testing::insert_workspace(s);
        const auto acc = account(s, ws, "-100801");
        const auto fresh = post_to(s, ws, {acc}, "fresh").targets[0].id;
        const auto sent = post_to(s, ws, {acc}, "sent").targets[0].id;
        PublishRepository::mark_sending(s, {{sent, "telegram"}}, time::now());
        const auto cancelled = post_to(s, ws, {acc}, "cancelled").targets[0].id;
        s.execute("UPDATE social_post_targets SET status = 'cancelled' WHERE id = ?", {cancelled});

        const auto taken = PublishRepository::take_up(s, {cancelled, 999999, fresh, sent, fresh});
        REQUIRE(taken.size() == 5);
        CHECK(taken[0]->target_status == social::TargetStatus::cancelled);
        CHECK_FALSE(taken[1]);
        CHECK(taken[2]->target_status == social::TargetStatus::queued);
        CHECK(taken[2]->post.content == "fresh");
        CHECK(taken[2]->account.external_id == "-100801");
        CHECK(taken[3]->send_started_at);
        CHECK(taken[4]->target_id == fresh);

        const auto stage = [&](long long id) {
            const auto r = s.query_one(
                "SELECT status, publish_stage FROM social_post_targets WHERE id = ?", {id});
            return r->text(0) + "/" + r->optional_text(1).value_or("-");
        };
        CHECK(stage(fresh) == "publishing/validating");
        CHECK(stage(sent) == "queued/publishing");
        CHECK(stage(cancelled) == "cancelled/-");
    });
}

TEST_CASE(
    "a batch of targets enters the media stage where they are still open, and their posts "
    "show processing",
    "[integration][publish]") {
    TestDatabase db;
    db.pool().transaction([&](db::Session& s) {
        const auto ws = testing::insert_workspace(s);
        const auto acc = account(s, ws, "-100811");
        const auto first = post_to(s, ws, {acc}, "first");
        const auto second = post_to(s, ws, {acc}, "second");
        const auto cancelled = post_to(s, ws, {acc}, "cancelled");
        s.execute("UPDATE social_post_targets SET status = 'cancelled' WHERE id = ?",
                  {cancelled.targets[0].id});

        const auto entered =
            PublishRepository::enter_stage(s,
                                           {{first.targets[0].id, first.id},
                                            {cancelled.targets[0].id, cancelled.id},
                                            {second.targets[0].id, second.id}},
                                           social::PublishStage::processing_media);
        CHECK(entered == std::vector<bool>{true, false, true});
        const auto shown = [&](const social::Post& post) {
            const auto r = s.query_one(
                "SELECT t.status, t.publish_stage, p.status FROM social_post_targets t"
                " JOIN social_posts p ON p.id = t.post_id WHERE t.id = ?",
                {post.targets[0].id});
            return r->text(0) + "/" + r->optional_text(1).value_or("-") + "/" + r->text(2);
        };
        CHECK(shown(first) == "publishing/processing_media/processing");
        CHECK(shown(second) == "publishing/processing_media/processing");
        CHECK(shown(cancelled).starts_with("cancelled/-/"));
        CHECK(
            PublishRepository::enter_stage(s, {}, social::PublishStage::processing_media).empty());
    });
}

TEST_CASE(
    "one batch of outcomes for many posts settles each post once with its own event and the "
    "media fixes of published and failed targets, and the warnings of published ones",
    "[integration][publish]") {
    TestDatabase db;
    db.pool().transaction([&](db::Session& s) {
        const auto ws = testing::insert_workspace(s);
        testing::hold_every_event(s, ws);
        const auto a = account(s, ws, "-100901");
        const auto b = account(s, ws, "-100902");
        const auto both = post_to(s, ws, {a, b}, "two targets");
        const auto single = post_to(s, ws, {a}, "one target");
        const auto waiting = post_to(s, ws, {a, b}, "one of two");
        const nlohmann::json refusal = {{"code", "PLATFORM_REFUSED"},
                                        {"message", "chat \"x\" said no \u00e9"},
                                        {"detail", {{"http_status", 400}}}};
        const nlohmann::json fixes = nlohmann::json::array({{{"media_url", "https://img/a.png"},
                                                             {"fix", "sent_as_document"},
                                                             {"reason", "too big"}}});
        const nlohmann::json warnings = {"the first comment was refused"};
        const auto at = time::now();
        const auto settled = PublishRepository::record_outcomes(
            s, {TargetOutcome{both.id, both.targets[0].id,
                              TargetOutcome::Delivery{"11", "https://t.me/c/11", at}, nullptr,
                              fixes, warnings},
                TargetOutcome{both.id, both.targets[1].id, {}, refusal, nullptr, nullptr},
                TargetOutcome{single.id, single.targets[0].id, {}, refusal, fixes, nullptr},
                TargetOutcome{waiting.id, waiting.targets[0].id,
                              TargetOutcome::Delivery{"12", std::nullopt, at}, nullptr,
                              nlohmann::json::array(), nullptr}});
        REQUIRE(settled.size() == 4);
        for (const auto& post : settled) CHECK_FALSE(post);
        const auto events = s.query("SELECT name, data FROM events ORDER BY id");
        REQUIRE(events.size() == 2);
        CHECK(events[0].text(0) == "post.partial");
        const auto partial = nlohmann::json::parse(events[0].text(1));
        CHECK(partial["post_id"] == both.id);
        CHECK(partial["targets"][0]["url"] == "https://t.me/c/11");
        CHECK(partial["targets"][1]["error"] == refusal);
        CHECK(partial["post_urls"]["_transcodes"] == nlohmann::json{{"telegram", fixes}});
        CHECK(partial["post_urls"]["_warnings"] == nlohmann::json{{"telegram", warnings}});
        CHECK(partial["targets"][1]["warnings"] == nlohmann::json::array());
        CHECK(partial["error"]["detail"][0]["detail"] == refusal["detail"]);
        CHECK(events[1].text(0) == "post.failed");
        const auto failed = nlohmann::json::parse(events[1].text(1));
        CHECK(failed["post_id"] == single.id);
        CHECK(failed["transcoded"][0]["fix"] == fixes[0]);
        CHECK(PostRepository::find_by_id(s, single.id)->targets[0].transcodes == fixes);
        CHECK(PostRepository::find_by_id(s, waiting.id)->targets[0].transcodes.is_null());
        CHECK(PostRepository::find_by_id(s, waiting.id)->status == waiting.status);
    });
}

TEST_CASE(
    "a settled post no endpoint hears raises no event, and only a settled post that recycles "
    "comes back, as stored, for its next occurrence",
    "[integration][publish]") {
    TestDatabase db;
    db.pool().transaction([&](db::Session& s) {
        const auto ws = testing::insert_workspace(s);
        const auto a = account(s, ws, "-100911");
        const auto plain = post_to(s, ws, {a}, "once");
        NewPost again;
        again.workspace_id = ws;
        again.content = "every day";
        again.recycle = RecycleRule{24, std::nullopt, std::nullopt};
        again.targets.push_back(NewTarget{a, "acc_" + std::to_string(a), "telegram", time::now()});
        const auto recycled = PostRepository::insert(s, again);
        const auto at = time::now();
        const auto settled = PublishRepository::record_outcomes(
            s, {TargetOutcome{plain.id, plain.targets[0].id,
                              TargetOutcome::Delivery{"21", std::nullopt, at}, nullptr, nullptr,
                              nullptr},
                TargetOutcome{recycled.id, recycled.targets[0].id,
                              TargetOutcome::Delivery{"22", "https://t.me/c/22", at}, nullptr,
                              nullptr, nullptr}});
        REQUIRE(settled.size() == 2);
        CHECK_FALSE(settled[0]);
        REQUIRE(settled[1]);
        CHECK(settled[1]->id == recycled.id);
        CHECK(settled[1]->status == PostStatus::published);
        CHECK(settled[1]->targets[0].url == "https://t.me/c/22");
        REQUIRE(settled[1]->recycle);
        CHECK(settled[1]->recycle->interval_hours == 24);
        CHECK(PostRepository::find_by_id(s, plain.id)->status == PostStatus::published);
        CHECK(s.query_one("SELECT COUNT(*) FROM events")->integer(0) == 0);
    });
}
