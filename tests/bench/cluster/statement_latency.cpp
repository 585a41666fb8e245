// What single statements cost on one connection (statement_latency.hpp).
#include "tests/bench/cluster/statement_latency.hpp"

#include "tests/bench/cluster/elapsed_time.hpp"
#include "tests/bench/support/bench.hpp"

#include <chrono>
#include <functional>
#include <vector>

namespace squawk::bench::cluster {
namespace {

// kProbes runs of `statement` (given the run's number) one after another.
Timing timed(const std::function<void(long long)>& statement) {
    std::vector<double> times;
    double sum = 0;
    for (int i = 0; i < kProbes; ++i) {
        const auto start = std::chrono::steady_clock::now();
        statement(i);
        times.push_back(seconds_since(start) * 1000);
        sum += times.back();
    }
    return {sum / kProbes, percentile(times, 99)};
}

}  // namespace

Timing commit_ms(db::MysqlPool& pool) {
    return pool.run([](db::Session& s) {
        s.execute(
            "CREATE TABLE IF NOT EXISTS bench_commit_probe "
            "(id BIGINT AUTO_INCREMENT PRIMARY KEY, v INT NOT NULL)");
        const auto timing = timed(
            [&](long long i) { s.execute("INSERT INTO bench_commit_probe (v) VALUES (?)", {i}); });
        s.execute("DROP TABLE bench_commit_probe");
        return timing;
    });
}

Timing read_ms(db::MysqlPool& pool) {
    return pool.run([](db::Session& s) {
        return timed([&](long long i) { s.query("SELECT id FROM jobs WHERE id = ?", {i + 1}); });
    });
}

}  // namespace squawk::bench::cluster
