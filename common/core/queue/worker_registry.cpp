#include "common/core/queue/worker_registry.hpp"

#include <algorithm>
#include <optional>

namespace squawk::queue {
namespace {

void check(const redis::Reply& reply, const char* what) {
    if (reply.is_error()) throw redis::RedisUnavailable(std::string(what) + ": " + reply.text);
}

// An entry another version of the worker wrote may lack fields; it is shown with what it has.
std::optional<WorkerInfo> from_json(const std::string& text) {
    const auto json = nlohmann::json::parse(text, nullptr, false);
    if (!json.is_object()) return std::nullopt;
    WorkerInfo worker;
    worker.id = json.value("id", "");
    worker.host = json.value("host", "");
    worker.pid = json.value("pid", 0LL);
    worker.started_at =
        time::parse_iso8601(json.value("started_at", "")).value_or(time::TimePoint{});
    for (const auto& pool : json.value("pools", nlohmann::json::array())) {
        if (!pool.is_object()) continue;
        worker.pools.push_back({pool.value("name", ""), pool.value("threads", 0),
                                pool.value("fibers", 0), pool.value("in_flight", 0LL)});
    }
    return worker;
}

}  // namespace

long long WorkerInfo::in_flight() const {
    long long n = 0;
    for (const auto& pool : pools) n += pool.in_flight;
    return n;
}

// One hash tag for the index and every entry: alive() reads them all with one MGET, which a
// Redis Cluster allows only within a slot.
std::string WorkerRegistry::index_key() const {
    return client_.key("{workers}:index");
}

std::string WorkerRegistry::entry_key(const std::string& worker_id) const {
    return client_.key("{workers}:" + worker_id);
}

void WorkerRegistry::announce(const WorkerInfo& worker, std::chrono::milliseconds ttl) {
    const auto replies = client_.pipeline(
        {{"SET", entry_key(worker.id), to_json(worker).dump(), "PX", std::to_string(ttl.count())},
         {"SADD", index_key(), worker.id}});
    check(replies[0], "SET");
    check(replies[1], "SADD");
}

void WorkerRegistry::withdraw(const std::string& worker_id) {
    const auto replies =
        client_.pipeline({{"DEL", entry_key(worker_id)}, {"SREM", index_key(), worker_id}});
    check(replies[0], "DEL");
    check(replies[1], "SREM");
}

std::vector<WorkerInfo> WorkerRegistry::alive() {
    const auto members = client_.command({"SMEMBERS", index_key()});
    check(members, "SMEMBERS");
    std::vector<WorkerInfo> workers;
    if (members.elements.empty()) return workers;
    redis::Command get{"MGET"};
    for (const auto& id : members.elements) get.push_back(entry_key(id.text));
    const auto entries = client_.command(get);
    check(entries, "MGET");
    // A worker that refreshes between the MGET and the SREM is listed again at its next refresh.
    redis::Command expired{"SREM", index_key()};
    for (size_t i = 0; i < members.elements.size() && i < entries.elements.size(); ++i) {
        const auto& entry = entries.elements[i];
        if (entry.is_nil()) {
            expired.push_back(members.elements[i].text);
            continue;
        }
        if (auto worker = from_json(entry.text)) workers.push_back(std::move(*worker));
    }
    if (expired.size() > 2) check(client_.command(expired), "SREM");
    std::sort(workers.begin(), workers.end(),
              [](const WorkerInfo& a, const WorkerInfo& b) { return a.id < b.id; });
    return workers;
}

nlohmann::json to_json(const WorkerInfo& worker) {
    nlohmann::json pools = nlohmann::json::array();
    for (const auto& pool : worker.pools)
        pools.push_back({{"name", pool.name},
                         {"threads", pool.threads},
                         {"fibers", pool.fibers},
                         {"in_flight", pool.in_flight}});
    return {{"id", worker.id},
            {"host", worker.host},
            {"pid", worker.pid},
            {"pools", std::move(pools)},
            {"in_flight", worker.in_flight()},
            {"started_at", time::format_iso8601(worker.started_at)}};
}

nlohmann::json to_json(const std::vector<WorkerInfo>& workers) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& worker : workers) list.push_back(to_json(worker));
    return list;
}

}  // namespace squawk::queue
