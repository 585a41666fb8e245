#include "common/core/db/mysql_pool.hpp"

#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/resultset_metadata.h>
#include <cppconn/statement.h>
#include <mysql_connection.h>
#include <mysql_driver.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <list>
#include <random>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace squawk::db {

// A connection with its prepared statements, most recently used first. Batches make statements
// whose text varies with the batch size; the cache keeps the recent ones, so a long-running
// process never approaches the server's max_prepared_stmt_count.
class Connection {
  public:
    // `server` indexes the pool's servers.
    Connection(std::unique_ptr<sql::Connection> raw, size_t server)
        : raw_(std::move(raw)), server_(server) {}
    ~Connection() {
        // Statements must be destroyed before their connection.
        index_.clear();
        statements_.clear();
        plain_.reset();
    }

    struct Prepared {
        std::unique_ptr<sql::PreparedStatement> statement;
        // The labels of its result columns, kept once a caller has asked for them.
        std::shared_ptr<const std::vector<std::string>> labels;
    };

    // Valid until the next prepare() on this connection.
    Prepared& prepare(const std::string& text) {
        if (const auto found = index_.find(text); found != index_.end()) {
            statements_.splice(statements_.begin(), statements_, found->second);
            return found->second->second;
        }
        statements_.emplace_front(
            text,
            Prepared{std::unique_ptr<sql::PreparedStatement>(raw_->prepareStatement(text)), {}});
        index_.emplace(text, statements_.begin());
        if (statements_.size() > kCachedStatements) {
            index_.erase(statements_.back().first);
            statements_.pop_back();
        }
        return statements_.front().second;
    }

    sql::Connection& raw() { return *raw_; }
    size_t server() const { return server_; }

    // Set while the connection waits in the empty transaction that COMMIT AND CHAIN opened, of
    // this isolation: the next transaction of that isolation starts with its first statement.
    std::optional<Isolation> chain;

    // A statement without parameters or results (transaction control).
    void execute_plain(const char* text) {
        if (!plain_) plain_.reset(raw_->createStatement());
        plain_->execute(text);
    }

  private:
    static constexpr size_t kCachedStatements = 128;
    using Cached = std::pair<std::string, Prepared>;

    std::unique_ptr<sql::Connection> raw_;
    size_t server_;
    std::list<Cached> statements_;
    std::unordered_map<std::string, std::list<Cached>::iterator> index_;
    std::unique_ptr<sql::Statement> plain_;
};

namespace {

[[noreturn]] void rethrow(const sql::SQLException& e) {
    throw DatabaseError(e.getErrorCode(), std::string("mysql error ") +
                                              std::to_string(e.getErrorCode()) + ": " + e.what());
}

void bind(sql::PreparedStatement& statement, const Params& params) {
    statement.clearParameters();
    unsigned index = 1;
    for (const auto& p : params) {
        std::visit(
            [&](const auto& v) {
                using T = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<T, std::nullptr_t>)
                    statement.setNull(index, 0);
                else if constexpr (std::is_same_v<T, long long>)
                    statement.setInt64(index, v);
                else if constexpr (std::is_same_v<T, double>)
                    statement.setDouble(index, v);
                else if constexpr (std::is_same_v<T, bool>)
                    statement.setBoolean(index, v);
                else
                    statement.setString(index, v);
            },
            p);
        ++index;
    }
}

std::vector<Row> read_rows(sql::ResultSet& rs) {
    const unsigned columns = rs.getMetaData()->getColumnCount();
    std::vector<Row> rows;
    rows.reserve(rs.rowsCount());
    while (rs.next()) {
        std::vector<std::optional<std::string>> values;
        values.reserve(columns);
        for (unsigned c = 1; c <= columns; ++c) {
            if (rs.isNull(c))
                values.emplace_back(std::nullopt);
            else
                values.emplace_back(std::string(rs.getString(c)));
        }
        rows.emplace_back(std::move(values));
    }
    return rows;
}

std::shared_ptr<const std::vector<std::string>> column_labels(sql::ResultSet& rs) {
    auto* meta = rs.getMetaData();
    const unsigned columns = meta->getColumnCount();
    auto labels = std::make_shared<std::vector<std::string>>();
    labels->reserve(columns);
    for (unsigned c = 1; c <= columns; ++c) labels->emplace_back(meta->getColumnLabel(c));
    return labels;
}

}  // namespace

const std::string& Row::text(size_t i) const {
    const auto& v = values_.at(i);
    if (!v) throw std::logic_error("column " + std::to_string(i) + " is NULL");
    return *v;
}

long long Row::integer(size_t i) const {
    const std::string& t = text(i);
    long long out = 0;
    std::from_chars(t.data(), t.data() + t.size(), out);
    return out;
}

std::optional<long long> Row::optional_integer(size_t i) const {
    if (is_null(i)) return std::nullopt;
    return integer(i);
}

double Row::real(size_t i) const {
    return std::stod(text(i));
}

std::vector<Row> Session::query(const std::string& sql, const Params& params) {
    try {
        auto& statement = *connection_.prepare(sql).statement;
        bind(statement, params);
        std::unique_ptr<sql::ResultSet> rs(statement.executeQuery());
        return read_rows(*rs);
    } catch (const sql::SQLException& e) {
        rethrow(e);
    }
}

ResultSet Session::select(const std::string& sql, const Params& params) {
    try {
        auto& prepared = connection_.prepare(sql);
        bind(*prepared.statement, params);
        std::unique_ptr<sql::ResultSet> rs(prepared.statement->executeQuery());
        if (!prepared.labels) prepared.labels = column_labels(*rs);
        return {prepared.labels, read_rows(*rs)};
    } catch (const sql::SQLException& e) {
        rethrow(e);
    }
}

std::optional<Row> Session::query_one(const std::string& sql, const Params& params) {
    auto rows = query(sql, params);
    if (rows.empty()) return std::nullopt;
    return std::move(rows.front());
}

uint64_t Session::execute(const std::string& sql, const Params& params) {
    try {
        auto& statement = *connection_.prepare(sql).statement;
        bind(statement, params);
        return static_cast<uint64_t>(statement.executeUpdate());
    } catch (const sql::SQLException& e) {
        rethrow(e);
    }
}

long long Session::insert(const std::string& sql, const Params& params) {
    const auto row = query_one(sql + " RETURNING id", params);
    if (!row) throw std::logic_error("an INSERT answered no row: " + sql);
    return row->integer(0);
}

MysqlPool::MysqlPool(config::MysqlSettings settings)
    : settings_(std::move(settings)),
      servers_(settings_.hosts.empty()
                   ? std::vector<config::HostPort>{{settings_.host, settings_.port}}
                   : settings_.hosts) {
    // The driver instance must exist before threads race to create it.
    sql::mysql::get_mysql_driver_instance();
}

MysqlPool::~MysqlPool() = default;

MysqlPool::Lease::Lease(MysqlPool& p, std::optional<Isolation> use)
    : pool(p), connection(p.acquire(use)) {}

MysqlPool::Lease::~Lease() {
    pool.release(std::move(connection));
}

void MysqlPool::discard(Lease& lease) {
    if (!lease.connection) return;
    const size_t server = lease.connection->server();
    lease.connection.reset();
    // The idle connections to that server most likely broke with this one (a restart, a node
    // gone): they are dropped now rather than failing one caller each, and new connections try
    // the next server first.
    std::vector<std::unique_ptr<Connection>> stale;
    {
        std::lock_guard lock(mutex_);
        for (auto& c : idle_)
            if (c->server() == server) stale.push_back(std::move(c));
        std::erase(idle_, nullptr);
    }
    size_t expected = server;
    preferred_server_.compare_exchange_strong(expected, (server + 1) % servers_.size());
}

bool MysqlPool::is_connection_error(int code) {
    // 1047: a Galera node that left the primary component refuses work until it rejoins.
    return code == 2002 || code == 2003 || code == 2006 || code == 2013 || code == 2055 ||
           code == 1047 || code == 0;
}

std::unique_ptr<Connection> MysqlPool::acquire(std::optional<Isolation> use) {
    std::unique_ptr<Connection> idle;
    {
        std::unique_lock lock(mutex_);
        if (!available_.wait_for(lock, std::chrono::seconds(10),
                                 [&] { return !idle_.empty() || leased_ < settings_.pool_size; }))
            throw DatabaseUnavailable("no database connection became free within 10 s");
        ++leased_;
        if (!idle_.empty()) {
            // The most recently used connection whose chain suits `use`, else the most recent.
            auto suits = std::find_if(idle_.rbegin(), idle_.rend(),
                                      [&](const auto& c) { return c->chain == use; });
            const auto taken = suits == idle_.rend() ? idle_.end() - 1 : std::prev(suits.base());
            idle = std::move(*taken);
            idle_.erase(taken);
        }
    }
    if (idle && leave_unsuited_chain(*idle, use)) return idle;
    std::string failures;
    const size_t first = preferred_server_.load();
    for (size_t i = 0; i < servers_.size(); ++i) {
        const size_t index = (first + i) % servers_.size();
        try {
            auto connection = open(index);
            preferred_server_.store(index);
            return connection;
        } catch (const sql::SQLException& e) {
            failures += "; " + servers_[index].host + ":" + std::to_string(servers_[index].port) +
                        ": " + e.what();
        } catch (...) {
            release(nullptr);
            throw;
        }
    }
    release(nullptr);
    throw DatabaseUnavailable("cannot connect to mysql" + failures);
}

std::unique_ptr<Connection> MysqlPool::open(size_t index) const {
    const auto& server = servers_[index];
    sql::ConnectOptionsMap options;
    options["hostName"] = sql::SQLString(server.host);
    options["port"] = server.port;
    options["userName"] = sql::SQLString(settings_.user);
    options["password"] = sql::SQLString(settings_.password);
    options["schema"] = sql::SQLString(settings_.database);
    options["OPT_RECONNECT"] = false;
    options["OPT_CONNECT_TIMEOUT"] = std::max(1, settings_.connect_timeout_ms / 1000);
    options["OPT_READ_TIMEOUT"] = 30;
    options["OPT_WRITE_TIMEOUT"] = 30;
    options["OPT_CHARSET_NAME"] = sql::SQLString("utf8mb4");
    std::unique_ptr<sql::Connection> raw(sql::mysql::get_mysql_driver_instance()->connect(options));
    std::unique_ptr<sql::Statement> session_setup(raw->createStatement());
    session_setup->execute("SET time_zone = '+00:00'");
    if (settings_.wsrep_sync_wait > 0)
        session_setup->execute("SET SESSION wsrep_sync_wait = " +
                               std::to_string(settings_.wsrep_sync_wait));
    // A cluster node outside the primary component accepts connections and SET but refuses
    // work (1047): it is skipped for the next one here rather than failing the caller later.
    if (servers_.size() > 1) session_setup->execute("DO 1");
    return std::make_unique<Connection>(std::move(raw), index);
}

void MysqlPool::release(std::unique_ptr<Connection> connection) {
    {
        std::lock_guard lock(mutex_);
        --leased_;
        if (connection) idle_.push_back(std::move(connection));
    }
    available_.notify_one();
}

bool MysqlPool::leave_unsuited_chain(Connection& c, std::optional<Isolation> use) {
    if (!c.chain || c.chain == use) return true;
    try {
        c.execute_plain("COMMIT");
        c.chain.reset();
        return true;
    } catch (const sql::SQLException&) {
        return false;
    }
}

// Transactions are opened and closed with statements while the connection stays in autocommit,
// and each COMMIT chains the next transaction: a connection that keeps serving transactions of
// one isolation spends one round trip on each besides its work, its COMMIT.
void MysqlPool::begin(Connection& c, Isolation isolation) {
    if (c.chain == isolation) return;
    try {
        if (isolation == Isolation::read_committed)
            c.execute_plain("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
        c.execute_plain("START TRANSACTION");
    } catch (const sql::SQLException& e) {
        rethrow(e);
    }
}

void MysqlPool::commit(Connection& c, Isolation isolation) {
    try {
        c.execute_plain("COMMIT AND CHAIN");
        c.chain = isolation;
    } catch (const sql::SQLException& e) {
        if (is_connection_error(e.getErrorCode()))
            throw CommitOutcomeUnknown("the connection broke during COMMIT: mysql error " +
                                       std::to_string(e.getErrorCode()) + ": " + e.what());
        rethrow(e);
    }
}

bool MysqlPool::settle_commit(const std::function<bool(Session&)>& committed,
                              std::chrono::milliseconds patience) {
    const auto give_up = std::chrono::steady_clock::now() + patience;
    for (;;) {
        try {
            return run(committed);
        } catch (const DatabaseUnavailable&) {
            if (std::chrono::steady_clock::now() >= give_up) throw;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

void MysqlPool::rollback(Connection& c) {
    c.chain.reset();
    try {
        c.execute_plain("ROLLBACK");
    } catch (const sql::SQLException&) {
        // The connection is broken; guarded() drops it when the original error propagates.
    }
}

void MysqlPool::pause_after_deadlock(int attempt) {
    // Spread the retries of the transactions that collided so they do not meet again.
    thread_local std::minstd_rand jitter(std::random_device{}());
    const int most_us = 5000 << attempt;
    std::this_thread::sleep_for(std::chrono::microseconds(jitter() % most_us));
}

}  // namespace squawk::db
