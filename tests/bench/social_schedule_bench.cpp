// Scheduling precision of the publish path: posts written ahead with PostRepository::insert, all
// due inside one second; lateness from each post's scheduled_time to the fake platform receiving
// its call (p50/p99/max for 1,000 posts, beside BullMQ delayed jobs under the same load), and
// the time from the start of the second to the last send for 10,000 posts.
#include "common/domain/social/post_repository.hpp"
#include "tests/bench/support/bench.hpp"
#include "tests/support/fake_platforms.hpp"
#include "tests/support/post_fixtures.hpp"
#include "tests/support/stack.hpp"
#include "tests/support/test_database.hpp"

#include <algorithm>
#include <iostream>
#include <thread>

using namespace squawk;
using namespace squawk::testing;
using namespace std::chrono_literals;

namespace {

// Posting caps allow 25 sends per account per hour: each account takes at most 25 posts.
constexpr int kPerAccount = 25;
constexpr int kInsertBatch = 500;

struct Figures {
    double p50_ms = 0;
    double p99_ms = 0;
    double max_ms = 0;
    double last_send_ms = 0;  // from the start of the due second to the last call received
};

class PublishBench {
  public:
    explicit PublishBench(int accounts) {
        StackOptions options;
        // Enough fibers to hold most of the second's posts, and a lead that hands them over early:
        // each is loaded and checked before its second, and only waits.
        options.worker_arguments = {"--pools", "publish", "--threads", "2", "--fibers", "3072"};
        options.extra_config = fake_.config() + "\n[workers.publish]\nlead_ms = 1000\n";
        stack_ = std::make_unique<Stack>(options);
        for (int i = 0; i < accounts; ++i) {
            const std::string name = "bench" + std::to_string(i);
            const auto token = fake_.add_telegram_bot(200000 + i, name + "_bot");
            fake_.add_telegram_chat({{"id", -1002000000000LL - i},
                                     {"type", "channel"},
                                     {"title", name},
                                     {"username", name}});
            const auto r = stack_->request("POST", "/v1/social/connect/telegram",
                                           {{"bot_token", token}, {"chat", "@" + name}},
                                           stack_->tenant().live_key);
            if (r.status != 201) throw std::runtime_error("connect failed: " + r.body);
            accounts_.push_back(r.json["data"]["id"].get<std::string>());
        }
    }

    // `total` posts due across the one second that starts `lead` from now.
    Figures run(int total, std::chrono::milliseconds lead) {
        clear();
        const auto second_ms = (time::to_unix_ms(time::now() + lead) / 1000 + 1) * 1000;
        std::vector<social::NewPost> batch;
        std::map<std::string, long long> due_ms;
        for (int k = 0; k < total; ++k) {
            const long long due = second_ms + (k * 1000LL) / total;
            const std::string text = "bench " + std::to_string(round_) + "-" + std::to_string(k);
            due_ms[text] = due;
            batch.push_back(new_post(*stack_, stack_->tenant().workspace_id, text,
                                     {accounts_[static_cast<size_t>(k / kPerAccount)]},
                                     time::TimePoint(std::chrono::milliseconds(due))));
            if (static_cast<int>(batch.size()) == kInsertBatch || k + 1 == total) {
                insert_posts(*stack_, batch);
                batch.clear();
            }
        }
        if (time::to_unix_ms(time::now()) >= second_ms)
            throw std::runtime_error("posts were not all written before their time");
        // Polled in MySQL, not on the fake, so that waiting does not slow the platform down.
        if (!Stack::wait_until(
                [&] {
                    return stack_->count(
                               "SELECT COUNT(*) FROM social_post_targets WHERE status"
                               " IN ('published', 'failed')") == total;
                },
                120s, 250ms))
            throw std::runtime_error("not every post was sent\n" + stack_->post_mortem());
        ++round_;
        std::vector<double> lateness;
        long long last = 0;
        for (const auto& call : fake_.calls("sendMessage")) {
            const auto body = nlohmann::json::parse(call["body"].get<std::string>());
            const auto found = due_ms.find(body.value("text", ""));
            if (found == due_ms.end()) continue;
            const long long at = call["received_at_ms"].get<long long>();
            lateness.push_back(static_cast<double>(at - found->second));
            last = std::max(last, at);
        }
        if (lateness.size() != static_cast<size_t>(total))
            throw std::runtime_error("expected " + std::to_string(total) + " sends, the fake got " +
                                     std::to_string(lateness.size()));
        return {bench::percentile(lateness, 50), bench::percentile(lateness, 99),
                *std::max_element(lateness.begin(), lateness.end()),
                static_cast<double>(last - second_ms)};
    }

  private:
    // Each round starts with no sends counted against the caps and an empty call record.
    void clear() {
        stack_->db().run([](db::Session& s) {
            s.execute("DELETE FROM social_post_targets");
            s.execute("DELETE FROM social_posts");
        });
        fake_.clear_calls();
    }

    FakePlatforms fake_;
    std::unique_ptr<Stack> stack_;
    std::vector<std::string> accounts_;
    int round_ = 0;
};

Figures bullmq_delayed(int total) {
    const auto& redis = ServerEnv::get().redis;
    const auto out = bench::run_node_peer(
        "bullmq_delayed.cjs", {redis.host, std::to_string(redis.port), std::to_string(total),
                               "5000", "256", unique_name("bulldelay")});
    return {out.at("p50_ms").get<double>(), out.at("p99_ms").get<double>(),
            out.at("max_ms").get<double>(), 0};
}

}  // namespace

int main() {
    try {
        bench::npm_install({"bullmq", "ioredis"});
        bench::Report report;
        bench::Series p50{"1,000 posts due in one second: lateness p50",
                          "ms",
                          false,
                          {},
                          "BullMQ delayed jobs",
                          {},
                          "-"};
        bench::Series p99{"1,000 posts due in one second: lateness p99",
                          "ms",
                          false,
                          {},
                          "BullMQ delayed jobs",
                          {},
                          "<= 50 ms"};
        bench::Series max{"1,000 posts due in one second: lateness max",
                          "ms",
                          false,
                          {},
                          "BullMQ delayed jobs",
                          {},
                          "-"};
        bench::Series burst{"10,000 posts due in one second: start of the second to last send",
                            "ms",
                            false,
                            {},
                            "",
                            {},
                            "<= 1500 ms"};
        {
            PublishBench small(1000 / kPerAccount);
            for (int round = 0; round < bench::repeats(); ++round) {
                std::cerr << "social schedule bench: round " << round + 1 << "\n";
                const auto ours = small.run(1000, 5s);
                p50.squawk.push_back(ours.p50_ms);
                p99.squawk.push_back(ours.p99_ms);
                max.squawk.push_back(ours.max_ms);
                const auto theirs = bullmq_delayed(1000);
                p50.peer.push_back(theirs.p50_ms);
                p99.peer.push_back(theirs.p99_ms);
                max.peer.push_back(theirs.max_ms);
            }
        }
        PublishBench large(10000 / kPerAccount);
        for (int round = 0; round < bench::repeats(); ++round)
            burst.squawk.push_back(large.run(10000, 40s).last_send_ms);
        report.add(p50);
        report.add(p99);
        report.add(max);
        report.add(burst);
        report.note(
            "Squawk: one worker process, publish pool 2 threads x 3,072 fibers, lead_ms 1000, "
            "fake Telegram on loopback; lateness = fake receive time - scheduled_time");
        report.write();
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "social schedule bench failed: " << e.what() << "\n";
        return 1;
    }
}
