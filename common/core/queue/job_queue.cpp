#include "common/core/queue/job_queue.hpp"

#include "common/core/time/clock.hpp"

#include <charconv>
#include <stdexcept>

namespace squawk::queue {
namespace {

// Moves due members to the stream atomically so a crash cannot lose one between the two keys.
constexpr const char* kMoveDueScript = R"lua(
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(due) do
  redis.call('XADD', KEYS[2], '*', 'id', id)
  redis.call('ZREM', KEYS[1], id)
end
return #due
)lua";

void check(const redis::Reply& reply, const char* what) {
    if (reply.is_error()) throw redis::RedisUnavailable(std::string(what) + ": " + reply.text);
}

long long parse_id(const std::string& text) {
    long long v = 0;
    std::from_chars(text.data(), text.data() + text.size(), v);
    return v;
}

long long entry_time_ms(const std::string& entry_id) {
    return parse_id(entry_id.substr(0, entry_id.find('-')));
}

}  // namespace

std::string JobQueue::ready_key(const std::string& pool) const {
    return client_.key("{q:" + pool + "}:ready");
}

std::string JobQueue::delayed_key(const std::string& pool) const {
    return client_.key("{q:" + pool + "}:delayed");
}

std::string JobQueue::epoch_key() const {
    return client_.key("queue-epoch");
}

void JobQueue::ensure_group(const std::string& pool) {
    const auto reply =
        client_.command({"XGROUP", "CREATE", ready_key(pool), kGroup, "0", "MKSTREAM"});
    if (reply.is_error() && reply.text.rfind("BUSYGROUP", 0) != 0)
        throw redis::RedisUnavailable("XGROUP CREATE failed: " + reply.text);
}

void JobQueue::enqueue(const std::string& pool, const std::vector<long long>& job_ids) {
    if (job_ids.empty()) return;
    const std::string key = ready_key(pool);
    std::vector<redis::Command> commands;
    commands.reserve(job_ids.size());
    for (long long id : job_ids) commands.push_back({"XADD", key, "*", "id", std::to_string(id)});
    for (const auto& reply : client_.pipeline(commands)) check(reply, "XADD");
}

std::vector<Entry> JobQueue::read(const std::string& pool, const std::string& consumer, int count,
                                  int block_ms) {
    const std::string key = ready_key(pool);
    auto reply =
        client_.command({"XREADGROUP", "GROUP", kGroup, consumer, "COUNT", std::to_string(count),
                         "BLOCK", std::to_string(block_ms), "STREAMS", key, ">"});
    if (reply.is_error() && reply.text.rfind("NOGROUP", 0) == 0) {
        // Redis lost its data (restart without persistence, flush): recreate and carry on.
        ensure_group(pool);
        return {};
    }
    check(reply, "XREADGROUP");
    std::vector<Entry> entries;
    if (reply.is_nil() || reply.elements.empty()) return entries;
    for (const auto& stream : reply.elements) {
        if (stream.elements.size() < 2) continue;
        for (const auto& item : stream.elements[1].elements) {
            if (item.elements.size() < 2) continue;
            Entry e;
            e.entry_id = item.elements[0].text;
            const auto& fields = item.elements[1].elements;
            for (size_t i = 0; i + 1 < fields.size(); i += 2)
                if (fields[i].text == "id") e.job_id = parse_id(fields[i + 1].text);
            entries.push_back(std::move(e));
        }
    }
    return entries;
}

void JobQueue::ack(const std::string& pool, const std::vector<std::string>& entry_ids,
                   const std::vector<Delayed>& retries) {
    if (entry_ids.empty() && retries.empty()) return;
    const std::string key = ready_key(pool);
    std::vector<redis::Command> commands;
    if (!entry_ids.empty()) {
        redis::Command xack{"XACK", key, kGroup};
        redis::Command xdel{"XDEL", key};
        xack.insert(xack.end(), entry_ids.begin(), entry_ids.end());
        xdel.insert(xdel.end(), entry_ids.begin(), entry_ids.end());
        commands.push_back(std::move(xack));
        commands.push_back(std::move(xdel));
    }
    if (!retries.empty()) {
        redis::Command zadd{"ZADD", delayed_key(pool)};
        for (const auto& d : retries) {
            zadd.push_back(std::to_string(d.due_unix_ms));
            zadd.push_back(std::to_string(d.job_id));
        }
        commands.push_back(std::move(zadd));
    }
    for (const auto& reply : client_.pipeline(commands)) check(reply, "XACK/ZADD");
}

void JobQueue::schedule(const std::string& pool, long long job_id, long long due_unix_ms) {
    schedule_many(pool, {{job_id, due_unix_ms}});
}

void JobQueue::schedule_many(const std::string& pool, const std::vector<Delayed>& jobs) {
    ack(pool, {}, jobs);
}

long long JobQueue::move_due(const std::string& pool, long long now_unix_ms, int limit) {
    const auto reply =
        client_.command({"EVAL", kMoveDueScript, "2", delayed_key(pool), ready_key(pool),
                         std::to_string(now_unix_ms), std::to_string(limit)});
    check(reply, "move due");
    return reply.integer;
}

long long JobQueue::drop_abandoned(const std::string& pool, long long min_idle_ms, int limit) {
    const std::string key = ready_key(pool);
    // XAUTOCLAIM scans a bounded window of the pending list per call; follow its cursor so idle
    // entries behind many live ones are reached too. `limit` bounds the work of one call.
    std::string cursor = "0-0";
    long long dropped = 0;
    for (int round = 0; round < 100 && dropped < limit; ++round) {
        const auto reply =
            client_.command({"XAUTOCLAIM", key, kGroup, "reclaimer", std::to_string(min_idle_ms),
                             cursor, "COUNT", std::to_string(limit - dropped), "JUSTID"});
        if (reply.is_error() && reply.text.rfind("NOGROUP", 0) == 0) return dropped;
        check(reply, "XAUTOCLAIM");
        if (reply.elements.size() < 2) return dropped;
        std::vector<std::string> ids;
        for (const auto& id : reply.elements[1].elements) ids.push_back(id.text);
        ack(pool, ids);
        dropped += static_cast<long long>(ids.size());
        cursor = reply.elements[0].text;
        if (cursor == "0-0") break;
    }
    return dropped;
}

void JobQueue::remove_consumer(const std::string& pool, const std::string& consumer) {
    const std::string key = ready_key(pool);
    // Deleting a consumer discards its pending entries; one that still has some keeps its name
    // so that drop_abandoned can settle them.
    const auto pending = client_.command({"XPENDING", key, kGroup, "-", "+", "1", consumer});
    if (pending.is_error() && pending.text.rfind("NOGROUP", 0) == 0) return;
    check(pending, "XPENDING");
    if (!pending.elements.empty()) return;
    check(client_.command({"XGROUP", "DELCONSUMER", key, kGroup, consumer}), "XGROUP DELCONSUMER");
}

PoolDepth JobQueue::depth(const std::string& pool) {
    const std::string key = ready_key(pool);
    auto replies = client_.pipeline({{"XINFO", "GROUPS", key},
                                     {"ZCARD", delayed_key(pool)},
                                     {"XRANGE", key, "-", "+", "COUNT", "1"},
                                     {"XLEN", key},
                                     {"XINFO", "STREAM", key}});
    PoolDepth d;
    d.delayed = replies[1].integer;
    long long length = replies[3].integer;
    // A missing stream answers an error: nothing was ever added. Every acknowledged entry is
    // deleted (see ack), so what was added and is no longer in the stream has finished; unlike
    // the group's entries-read, this count never becomes unknown after out-of-order deletions.
    if (!replies[4].is_error()) {
        const auto& f = replies[4].elements;
        for (size_t i = 0; i + 1 < f.size(); i += 2)
            if (f[i].text == "entries-added") d.added = f[i + 1].integer;
        d.finished = std::max(0LL, d.added - length);
    }
    if (!replies[0].is_error()) {
        for (const auto& group : replies[0].elements) {
            const auto& f = group.elements;
            for (size_t i = 0; i + 1 < f.size(); i += 2) {
                if (f[i].text == "pending") d.pending = f[i + 1].integer;
            }
        }
    }
    d.ready = std::max(0LL, length - d.pending);
    if (!replies[2].elements.empty() && length > 0) {
        const long long oldest = entry_time_ms(replies[2].elements[0].elements[0].text);
        d.oldest_ready_age_ms = std::max(0LL, time::to_unix_ms(time::now()) - oldest);
    }
    return d;
}

bool JobQueue::epoch_present() {
    return client_.command({"EXISTS", epoch_key()}).integer == 1;
}

void JobQueue::mark_epoch() {
    check(client_.command({"SET", epoch_key(), std::to_string(time::to_unix_ms(time::now()))}),
          "SET epoch");
}

}  // namespace squawk::queue
