// MySQL access for every process: a bounded pool of connections, each with its prepared statements.
// Repositories use Session::query/execute with bound parameters only; SQL is never built from
// input.
#pragma once

#include "common/core/db/commit_companion.hpp"
#include "common/core/db/mysql_settings.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace sql {
class Connection;
class PreparedStatement;
}  // namespace sql

namespace squawk::db {

// The server cannot be reached or the connection broke; the caller may retry later.
class DatabaseUnavailable : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The connection broke while COMMIT was in flight: the server may have committed the transaction
// before the answer was lost (a server shutting down commits, then drops its clients). A caller
// whose effect must not run twice asks the server which it was (MysqlPool::settle_commit).
class CommitOutcomeUnknown : public DatabaseUnavailable {
  public:
    using DatabaseUnavailable::DatabaseUnavailable;
};

// The server refused a statement (constraint, syntax, deadlock...).
class DatabaseError : public std::runtime_error {
  public:
    DatabaseError(int code, const std::string& what) : std::runtime_error(what), code_(code) {}
    int code() const { return code_; }
    bool is_duplicate_key() const { return code_ == 1062; }
    bool is_deadlock() const { return code_ == 1213 || code_ == 1205; }
    // The server chose this transaction as a deadlock's victim and rolled all of it back.
    bool rolled_back_by_deadlock() const { return code_ == 1213; }

  private:
    int code_;
};

using Param = std::variant<std::nullptr_t, long long, double, bool, std::string>;
using Params = std::vector<Param>;

// A materialized result row; columns are read by position in the SELECT list.
class Row {
  public:
    explicit Row(std::vector<std::optional<std::string>> values) : values_(std::move(values)) {}
    bool is_null(size_t i) const { return !values_.at(i).has_value(); }
    const std::string& text(size_t i) const;  // throws on NULL
    std::optional<std::string> optional_text(size_t i) const { return values_.at(i); }
    long long integer(size_t i) const;
    std::optional<long long> optional_integer(size_t i) const;
    double real(size_t i) const;
    size_t size() const { return values_.size(); }

  private:
    std::vector<std::optional<std::string>> values_;
};

// Rows with the labels of their columns, for reading columns by name (db::RowMapper). The labels
// are shared by every result of the same statement on a connection.
struct ResultSet {
    std::shared_ptr<const std::vector<std::string>> columns;
    std::vector<Row> rows;
};

class Connection;

// READ COMMITTED suits a transaction whose locking reads must not hold gaps that others insert
// into (claiming outbox rows with SKIP LOCKED while events keep being written).
enum class Isolation { repeatable_read, read_committed };

// One leased connection; valid inside MysqlPool::run / transaction callbacks.
class Session {
  public:
    explicit Session(Connection& connection) : connection_(connection) {}
    std::vector<Row> query(const std::string& sql, const Params& params = {});
    std::optional<Row> query_one(const std::string& sql, const Params& params = {});
    // As query, with the column labels; they are read from the server once per statement.
    ResultSet select(const std::string& sql, const Params& params = {});
    uint64_t execute(const std::string& sql, const Params& params = {});  // affected rows
    // An INSERT of one row into a table keyed by an auto-increment `id`: the row's id, read back
    // by MariaDB's RETURNING in the same round trip rather than by a second statement.
    long long insert(const std::string& sql, const Params& params = {});

  private:
    Connection& connection_;
};

class MysqlPool {
  public:
    explicit MysqlPool(config::MysqlSettings settings);
    ~MysqlPool();
    MysqlPool(const MysqlPool&) = delete;
    MysqlPool& operator=(const MysqlPool&) = delete;

    // Runs `f(Session&)` on a leased connection in autocommit mode.
    template <class F>
    auto run(F&& f) {
        Lease lease(*this, std::nullopt);
        Session session(*lease.connection);
        return guarded(lease, [&] { return f(session); });
    }

    // Runs `f(Session&)` in one transaction: committed when f returns, rolled back if it throws.
    // A transaction chosen as a deadlock's victim runs again (a few times), so `f` must do
    // nothing but database work.
    template <class F>
    auto transaction(F&& f, Isolation isolation = Isolation::repeatable_read) {
        for (int attempt = 1;; ++attempt) {
            try {
                return transaction_once(f, isolation);
            } catch (const DatabaseError& e) {
                if (!e.rolled_back_by_deadlock() || attempt == kDeadlockAttempts) throw;
            }
            pause_after_deadlock(attempt);
        }
    }

    // After CommitOutcomeUnknown: runs `committed(Session&)`, which looks for what the transaction
    // wrote, until the server answers or `patience` runs out (then DatabaseUnavailable).
    bool settle_commit(const std::function<bool(Session&)>& committed,
                       std::chrono::milliseconds patience);

    const config::MysqlSettings& settings() const { return settings_; }

  private:
    static constexpr int kDeadlockAttempts = 4;

    template <class F>
    auto transaction_once(F& f, Isolation isolation) {
        Lease lease(*this, isolation);
        Session session(*lease.connection);
        return guarded(lease, [&] {
            begin(*lease.connection, isolation);
            try {
                if constexpr (std::is_void_v<decltype(f(session))>) {
                    f(session);
                    CommitCompanion::join(session);
                    commit(*lease.connection, isolation);
                } else {
                    auto result = f(session);
                    CommitCompanion::join(session);
                    commit(*lease.connection, isolation);
                    return result;
                }
            } catch (...) {
                rollback(*lease.connection);
                throw;
            }
        });
    }

    // `use`: the isolation of the transaction the connection is leased for, or none for
    // autocommit.
    struct Lease {
        Lease(MysqlPool& pool, std::optional<Isolation> use);
        ~Lease();
        MysqlPool& pool;
        std::unique_ptr<Connection> connection;
    };

    // Translates driver failures: broken connections are dropped and reported as unavailable.
    template <class G>
    auto guarded(Lease& lease, G&& g) {
        try {
            return g();
        } catch (const DatabaseUnavailable&) {
            discard(lease);
            throw;
        } catch (const DatabaseError& e) {
            if (is_connection_error(e.code())) {
                discard(lease);
                throw DatabaseUnavailable(e.what());
            }
            throw;
        }
    }

    void discard(Lease& lease);
    static bool is_connection_error(int code);
    // Ends the empty chained transaction `c` waits in unless it is of `use`; false if the
    // connection broke.
    static bool leave_unsuited_chain(Connection& c, std::optional<Isolation> use);
    static void begin(Connection& c, Isolation isolation);
    static void commit(Connection& c, Isolation isolation);
    static void rollback(Connection& c);
    static void pause_after_deadlock(int attempt);
    std::unique_ptr<Connection> acquire(std::optional<Isolation> use);
    // A new connection to servers_[index], set up for this pool's sessions; throws
    // sql::SQLException.
    std::unique_ptr<Connection> open(size_t index) const;
    void release(std::unique_ptr<Connection> connection);

    config::MysqlSettings settings_;
    std::vector<config::HostPort> servers_;
    // Where new connections go first: the last server that accepted one.
    std::atomic<size_t> preferred_server_{0};
    std::mutex mutex_;
    std::condition_variable available_;
    std::vector<std::unique_ptr<Connection>> idle_;
    int leased_ = 0;
};

}  // namespace squawk::db
