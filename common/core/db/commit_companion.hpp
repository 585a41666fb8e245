// Work that commits with every transaction the current thread commits while the companion is in
// scope, and rolls back with it. The API marks a request's idempotency record this way, inside the
// handler's own transactions: a request whose write committed is then never taken for one that
// did nothing, even when its answer is lost right after COMMIT.
#pragma once

#include <functional>
#include <utility>

namespace squawk::db {

class Session;

class CommitCompanion {
  public:
    explicit CommitCompanion(std::function<void(Session&)> work)
        : work_(std::move(work)), outer_(current()) {
        current() = this;
    }
    ~CommitCompanion() { current() = outer_; }
    CommitCompanion(const CommitCompanion&) = delete;
    CommitCompanion& operator=(const CommitCompanion&) = delete;

    // Runs the current thread's companion, if any, in `session`'s open transaction (MysqlPool
    // calls it just before COMMIT). A companion without work adds nothing.
    static void join(Session& session) {
        if (auto* companion = current(); companion && companion->work_) companion->work_(session);
    }

    // The current thread's companion work, if any, for a transaction another thread runs on its
    // behalf (db::GroupCommit), which then calls it itself.
    static std::function<void(Session&)> current_work() {
        const auto* companion = current();
        return companion ? companion->work_ : nullptr;
    }

  private:
    static CommitCompanion*& current() {
        thread_local CommitCompanion* companion = nullptr;
        return companion;
    }

    std::function<void(Session&)> work_;
    CommitCompanion* outer_;
};

}  // namespace squawk::db
