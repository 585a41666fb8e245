#include "tests/chaos/cluster/faults.hpp"

#include "common/core/db/sql_text.hpp"
#include "common/core/redis/redis_client.hpp"
#include "tests/support/http_client.hpp"

#include <signal.h>

#include <thread>

namespace squawk::chaos {
namespace {

using namespace std::chrono_literals;

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

bool healthy(const std::string& base_url) {
    try {
        testing::HttpClient http(base_url);
        return http.send("GET", "/health", std::nullopt, {}, 1s).status == 200;
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace

double Faults::until(const std::function<bool()>& predicate, std::chrono::seconds limit,
                     Clock::time_point since) {
    while (Clock::now() - since < limit) {
        if (predicate()) return seconds_since(since);
        std::this_thread::sleep_for(20ms);
    }
    return -1;
}

long long Faults::completed_jobs() {
    try {
        return mysql_.run([](db::Session& s) {
            return s.query("SELECT COUNT(*) FROM jobs WHERE status = 'completed'", {})
                .at(0)
                .integer(0);
        });
    } catch (const std::exception&) {
        return -1;  // no node answered this time
    }
}

std::string Faults::leader_owner() {
    try {
        redis::RedisClient redis(cluster_.redis_settings());
        const auto reply = redis.command({"GET", redis.key("scheduler:leader")});
        return reply.is_nil() ? "" : reply.text;
    } catch (const std::exception&) {
        return "";
    }
}

void Faults::record(const std::string& fault, const std::string& measure, double seconds) {
    recoveries_.push_back({fault, measure, seconds});
    if (seconds < 0) problems_.push_back(fault + ": never " + measure);
}

void Faults::kill_workers(Clock::time_point until_time, const std::atomic<bool>& done) {
    while (Clock::now() + 2s < until_time || !done) {
        std::this_thread::sleep_for(2s);
        const std::string name = "worker-" + std::to_string(worker_kills_ % 2 + 1);
        try {
            WorkerKill kill{time::now(), {}};
            try {
                kill.running_jobs = mysql_.run([](db::Session& s) {
                    std::vector<long long> ids;
                    for (const auto& r :
                         s.query("SELECT id FROM jobs WHERE status = 'running'", {}))
                        ids.push_back(r.integer(0));
                    return ids;
                });
            } catch (const std::exception&) {
                // No node answered: this kill goes unmeasured.
            }
            cluster_.kill(name, SIGKILL);
            ++worker_kills_;
            worker_kill_log_.push_back(std::move(kill));
            until([&] { return !cluster_.pid(name); }, 10s);
            cluster_.start(name);
        } catch (const std::exception& e) {
            problems_.push_back(name + ": " + e.what());
        }
    }
}

std::vector<double> Faults::worker_recoveries() {
    std::vector<double> seconds;
    for (const auto& kill : worker_kill_log_) {
        if (kill.running_jobs.empty()) continue;
        std::string sql =
            "SELECT MAX(finished_at), SUM(finished_at IS NULL) FROM jobs WHERE id IN (?";
        for (size_t i = 1; i < kill.running_jobs.size(); ++i) sql += ",?";
        const db::Params ids(kill.running_jobs.begin(), kill.running_jobs.end());
        mysql_.run([&](db::Session& s) {
            const auto r = s.query(sql + ")", ids).at(0);
            if (r.integer(1) == 0)
                seconds.push_back(
                    std::chrono::duration<double>(db::time_column(r, 0) - kill.at).count());
        });
    }
    return seconds;
}

void Faults::run_sequence(Clock::time_point start, Clock::time_point until_time) {
    // The Galera node goes last: its rejoin can take 15 s on a loaded machine, and a fault after
    // it would come once the submissions had ended, with no job left to see completing again.
    const std::vector<void (Faults::*)()> sequence = {
        &Faults::kill_api, &Faults::kill_leading_scheduler, &Faults::kill_redis_primary,
        &Faults::stop_galera_node};
    const auto step = (until_time - start) / static_cast<int>(sequence.size() + 1);
    for (size_t i = 0; i < sequence.size(); ++i) {
        std::this_thread::sleep_until(start + step * static_cast<int>(i + 1));
        try {
            (this->*sequence[i])();
            ++made_;
        } catch (const std::exception& e) {
            problems_.push_back(e.what());
        }
    }
}

void Faults::kill_api() {
    cluster_.kill("api-1", SIGKILL);
    until([&] { return !cluster_.pid("api-1"); }, 10s);
    std::this_thread::sleep_for(1s);
    const auto restart = Clock::now();
    cluster_.start("api-1");
    record("api-1 SIGKILLed, restarted 1 s later", "answering /health again after its restart",
           until([&] { return healthy(cluster_.api_url(1)); }, 60s, restart));
}

void Faults::kill_leading_scheduler() {
    const std::string owner = leader_owner();
    std::string leader;
    for (const std::string name : {"scheduler-1", "scheduler-2"})
        if (const auto pid = cluster_.pid(name);
            pid && owner.find("-" + std::to_string(*pid) + "-") != std::string::npos)
            leader = name;
    if (leader.empty()) throw std::runtime_error("no running scheduler holds the lease: " + owner);
    const auto kill = Clock::now();
    cluster_.kill(leader, SIGKILL);
    record(leader + " (the leader) SIGKILLed", "another scheduler holding the lease",
           until(
               [&] {
                   const auto now = leader_owner();
                   return !now.empty() && now != owner;
               },
               30s, kill));
    until([&] { return !cluster_.pid(leader); }, 10s);
    cluster_.start(leader);
}

void Faults::stop_galera_node() {
    const long long before = completed_jobs();
    const auto stop = Clock::now();
    cluster_.stop("mariadb-2");
    record("mariadb-2 stopped", "jobs completing again after the node left",
           until([&] { return completed_jobs() > before; }, 60s, stop));
    std::this_thread::sleep_for(2s);
    const auto rejoin = Clock::now();
    cluster_.start("mariadb-2");
    record("mariadb-2 started again", "rejoined and synced", seconds_since(rejoin));
}

void Faults::kill_redis_primary() {
    const long long before = completed_jobs();
    const auto kill = Clock::now();
    cluster_.kill_redis_primary();
    // Each measure counts from the kill.
    record("Redis primary SIGKILLed", "the Sentinels naming a new primary that answers",
           until(
               [&] {
                   try {
                       redis::RedisClient redis(cluster_.redis_settings());
                       return redis.command({"SET", redis.key("chaos:probe"), "1"}).type !=
                              redis::Reply::Type::error;
                   } catch (const std::exception&) {
                       return false;
                   }
               },
               60s, kill));
    record("Redis primary SIGKILLed", "HAProxy answering /health again",
           until([&] { return healthy(cluster_.base_url()); }, 60s, kill));
    record("Redis primary SIGKILLed", "jobs completing again",
           until([&] { return completed_jobs() > before; }, 60s, kill));
}

}  // namespace squawk::chaos
