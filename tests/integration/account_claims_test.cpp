// The sync pool's two claims on accounts, run on the same period by every sync worker, against a
// real database: while one holds its transaction open, the other still claims the accounts due
// for it. A locking read of a claim that found nothing used to lock the first row past its range,
// an account it did not want, and the other claim's SKIP LOCKED passed over that account.
#include "common/core/db/sql_text.hpp"
#include "common/domain/social/account_repository.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

#include <latch>
#include <optional>
#include <thread>

using namespace squawk;
using namespace squawk::social;
using namespace std::chrono_literals;

namespace {

struct ClaimedAccounts {
    testing::TestDatabase db;
    long long workspace =
        db.pool().run([](db::Session& s) { return testing::insert_workspace(s); });

    // An X account whose token expires `token_in` from now and whose metrics reading is due
    // `metrics_in` from now (never read when not given).
    long long account(std::chrono::minutes token_in,
                      std::optional<std::chrono::minutes> metrics_in = std::nullopt) {
        return db.pool().transaction([&](db::Session& s) {
            const auto id =
                AccountRepository::insert(
                    s, workspace, "x",
                    Identity{"50" + std::to_string(token_in.count()), "account", ""}, "sealed")
                    .id;
            const auto now = time::now();
            s.execute(
                "UPDATE social_accounts SET token_expires_at = ?, metrics_due_at = ? WHERE id = ?",
                {db::time_param(now + token_in),
                 metrics_in ? db::time_param(now + *metrics_in) : db::Param(nullptr), id});
            return id;
        });
    }

    std::vector<long long> refreshes() {
        return ids(db.pool().transaction([](db::Session& s) {
            return AccountRepository::lease_due_refreshes(s, time::now() + 10min,
                                                          time::now() + 1min, 50);
        }));
    }

    std::vector<long long> metrics() {
        return ids(db.pool().transaction([](db::Session& s) {
            return AccountRepository::lease_due_metrics(s, time::now(), time::now() + 10min, 50);
        }));
    }

    // `claim` runs in a transaction held open while `other` runs; returns {claim's, other's}.
    template <class Claim, class Other>
    std::pair<std::vector<long long>, std::vector<long long>> overlapping(Claim claim,
                                                                          Other other) {
        std::vector<long long> held;
        std::latch claimed(1);
        std::latch released(1);
        std::thread holder([&] {
            db.pool().transaction([&](db::Session& s) {
                held = ids(claim(s));
                claimed.count_down();
                released.wait();
            });
        });
        claimed.wait();
        const auto got = other();
        released.count_down();
        holder.join();
        return {held, got};
    }

    static std::vector<long long> ids(const std::vector<Account>& accounts) {
        std::vector<long long> out;
        for (const auto& a : accounts) out.push_back(a.id);
        return out;
    }
};

}  // namespace

TEST_CASE_METHOD(ClaimedAccounts,
                 "an account due for its metrics reading is claimed while a token refresh claim "
                 "that found nothing holds its transaction",
                 "[integration][social][sync]") {
    const auto fresh = account(120min);
    const auto [refreshing, read] = overlapping(
        [](db::Session& s) {
            return AccountRepository::lease_due_refreshes(s, time::now() + 10min,
                                                          time::now() + 1min, 50);
        },
        [&] { return metrics(); });
    CHECK(refreshing.empty());
    CHECK(read == std::vector<long long>{fresh});
}

TEST_CASE_METHOD(ClaimedAccounts,
                 "an account due for a token refresh is claimed while a metrics claim that found "
                 "nothing holds its transaction",
                 "[integration][social][sync]") {
    const auto expiring = account(5min, 60min);
    const auto [read, refreshing] = overlapping(
        [](db::Session& s) {
            return AccountRepository::lease_due_metrics(s, time::now(), time::now() + 10min, 50);
        },
        [&] { return refreshes(); });
    CHECK(read.empty());
    CHECK(refreshing == std::vector<long long>{expiring});
    // The lease holds: the account is not handed out again.
    CHECK(refreshes().empty());
}
