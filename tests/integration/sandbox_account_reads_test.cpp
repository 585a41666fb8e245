// Sandbox accounts against a real database: the AccountView a read names decides whether they
// are found, listed and resolved, and the background leases (token refresh, metrics) never take
// one, however due it looks.
#include "common/domain/accounts/connected_accounts.hpp"
#include "common/domain/social/account_repository.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::social;
using namespace std::chrono_literals;

namespace {

struct SandboxFixture {
    SandboxFixture() {
        db.pool().transaction([&](db::Session& s) {
            workspace = testing::insert_workspace(s);
            real = AccountRepository::insert(s, workspace, "x", Identity{"1001", "Real", "real"},
                                             "sealed");
            sandbox = AccountRepository::insert_sandbox(
                s, workspace, "x", Identity{"sandbox-1", "Sandbox", ""}, "sealed");
            // Both look due for a refresh and a metrics reading.
            for (const auto* a : {&real, &sandbox})
                AccountRepository::set_token_expiry(s, a->id, time::now() + 1min);
        });
    }

    testing::TestDatabase db;
    long long workspace = 0;
    Account real;
    Account sandbox;
};

std::vector<long long> ids_of(const std::vector<Account>& accounts) {
    std::vector<long long> out;
    for (const auto& a : accounts) out.push_back(a.id);
    return out;
}

}  // namespace

TEST_CASE_METHOD(SandboxFixture, "a live view never finds, lists or resolves a sandbox account",
                 "[integration][social]") {
    db.pool().run([&](db::Session& s) {
        CHECK_FALSE(AccountRepository::find(s, workspace, AccountView::live, sandbox.public_id));
        const auto found =
            AccountRepository::find(s, workspace, AccountView::test, sandbox.public_id);
        REQUIRE(found);
        CHECK(found->sandbox);
        CHECK_FALSE(
            AccountRepository::find(s, workspace, AccountView::live, real.public_id)->sandbox);

        CHECK(ids_of(AccountRepository::list(s, workspace, AccountView::live, "", 0, 10).items) ==
              std::vector<long long>{real.id});
        const auto test_page = AccountRepository::list(s, workspace, AccountView::test, "x", 0, 10);
        CHECK(test_page.total == 2);
        CHECK(ids_of(test_page.items) == std::vector<long long>{sandbox.id, real.id});

        const std::vector<std::string> both{real.public_id, sandbox.public_id};
        CHECK(AccountRepository::resolve(s, workspace, AccountView::live, both).size() == 1);
        CHECK(AccountRepository::resolve(s, workspace, AccountView::test, both).size() == 2);
        // The rate tier counts the real account alone.
        CHECK(accounts::ConnectedAccounts::count(s, workspace) == 1);
    });
}

TEST_CASE_METHOD(SandboxFixture, "background leases take the real account and skip the sandbox one",
                 "[integration][social]") {
    const auto refreshes = db.pool().transaction([&](db::Session& s) {
        return AccountRepository::lease_due_refreshes(s, time::now() + 10min, time::now() + 2min,
                                                      10);
    });
    CHECK(ids_of(refreshes) == std::vector<long long>{real.id});
    const auto readings = db.pool().transaction([&](db::Session& s) {
        return AccountRepository::lease_due_metrics(s, time::now(), time::now() + 10min, 10);
    });
    CHECK(ids_of(readings) == std::vector<long long>{real.id});
}
