#include "common/core/redis/redis_client.hpp"

#include <hiredis/hiredis.h>

#include <cstdlib>

namespace squawk::redis {
namespace {

Reply copy(const redisReply* r) {
    Reply out;
    switch (r->type) {
        case REDIS_REPLY_INTEGER:
            out.type = Reply::Type::integer;
            out.integer = r->integer;
            break;
        case REDIS_REPLY_STRING:
            out.type = Reply::Type::string;
            out.text.assign(r->str, r->len);
            break;
        case REDIS_REPLY_STATUS:
            out.type = Reply::Type::status;
            out.text.assign(r->str, r->len);
            break;
        case REDIS_REPLY_ERROR:
            out.type = Reply::Type::error;
            out.text.assign(r->str, r->len);
            break;
        case REDIS_REPLY_ARRAY:
            out.type = Reply::Type::array;
            out.elements.reserve(r->elements);
            for (size_t i = 0; i < r->elements; ++i) out.elements.push_back(copy(r->element[i]));
            break;
        default:
            out.type = Reply::Type::nil;
    }
    return out;
}

struct ReplyDeleter {
    void operator()(redisReply* r) const { freeReplyObject(r); }
};
using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

struct ContextDeleter {
    void operator()(redisContext* c) const { redisFree(c); }
};
using ContextPtr = std::unique_ptr<redisContext, ContextDeleter>;

ContextPtr open(const config::HostPort& address, int timeout_ms) {
    const timeval timeout{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
    ContextPtr context(redisConnectWithTimeout(address.host.c_str(), address.port, timeout));
    if (!context || context->err)
        throw RedisUnavailable("cannot connect to redis at " + address.host + ":" +
                               std::to_string(address.port) + ": " +
                               (context ? context->errstr : "out of memory"));
    redisSetTimeout(context.get(), timeout);
    return context;
}

// Sends the commands in one round trip; RedisUnavailable on any I/O failure, after which the
// connection is unusable.
std::vector<Reply> exchange(redisContext* context, const std::vector<Command>& commands) {
    std::vector<const char*> argv;
    std::vector<size_t> argvlen;
    for (const auto& cmd : commands) {
        argv.clear();
        argvlen.clear();
        for (const auto& a : cmd) {
            argv.push_back(a.data());
            argvlen.push_back(a.size());
        }
        if (redisAppendCommandArgv(context, static_cast<int>(argv.size()), argv.data(),
                                   argvlen.data()) != REDIS_OK)
            throw RedisUnavailable(std::string("redis write failed: ") + context->errstr);
    }
    std::vector<Reply> replies;
    replies.reserve(commands.size());
    for (size_t i = 0; i < commands.size(); ++i) {
        void* raw = nullptr;
        if (redisGetReply(context, &raw) != REDIS_OK || !raw)
            throw RedisUnavailable(std::string("redis read failed: ") + context->errstr);
        ReplyPtr reply(static_cast<redisReply*>(raw));
        replies.push_back(copy(reply.get()));
    }
    return replies;
}

// A primary demoted by a failover answers writes with READONLY until its clients go elsewhere.
bool demoted(const std::vector<Reply>& replies) {
    for (const auto& r : replies)
        if (r.is_error() && r.text.starts_with("READONLY")) return true;
    return false;
}

// The primary the first Sentinel that knows `master` names.
config::HostPort primary_named_by_sentinels(const config::RedisSettings& settings) {
    std::string failures;
    for (const auto& sentinel : settings.sentinels) {
        try {
            const auto context = open(sentinel, settings.timeout_ms);
            const auto reply =
                exchange(context.get(),
                         {{"SENTINEL", "get-master-addr-by-name", settings.sentinel_master}})[0];
            int port = 0;
            if (reply.type == Reply::Type::array && reply.elements.size() == 2 &&
                (port = std::atoi(reply.elements[1].text.c_str())) > 0)
                return {reply.elements[0].text, port};
            failures += "; " + sentinel.host + ":" + std::to_string(sentinel.port) +
                        " knows no primary named " + settings.sentinel_master;
        } catch (const RedisUnavailable& e) {
            failures += std::string("; ") + e.what();
        }
    }
    throw RedisUnavailable("no sentinel named a redis primary" + failures);
}

}  // namespace

RedisClient::RedisClient(config::RedisSettings settings) : settings_(std::move(settings)) {}

RedisClient::~RedisClient() {
    drop();
}

std::string RedisClient::key(std::string_view suffix) const {
    std::string k = settings_.prefix;
    k += ':';
    k += suffix;
    return k;
}

void RedisClient::drop() {
    if (context_) redisFree(context_);
    context_ = nullptr;
}

void RedisClient::connect() {
    if (context_) return;
    const bool through_sentinels = !settings_.sentinels.empty();
    const auto address = through_sentinels ? primary_named_by_sentinels(settings_)
                                           : config::HostPort{settings_.host, settings_.port};
    auto context = open(address, settings_.timeout_ms);
    std::vector<Command> hello;
    if (!settings_.password.empty()) hello.push_back({"AUTH", settings_.password});
    // Sentinels name the new primary a moment before it has taken the role.
    if (through_sentinels) hello.push_back({"ROLE"});
    if (!hello.empty()) {
        const auto replies = exchange(context.get(), hello);
        if (!settings_.password.empty() && replies.front().is_error())
            throw RedisUnavailable("redis refused the password");
        if (through_sentinels) {
            const auto& role = replies.back();
            if (role.type != Reply::Type::array || role.elements.empty() ||
                role.elements[0].text != "master")
                throw RedisUnavailable("the server the sentinels named as primary (" +
                                       address.host + ":" + std::to_string(address.port) +
                                       ") is not a primary yet");
        }
    }
    context_ = context.release();
}

Reply RedisClient::command(const Command& args) {
    auto replies = pipeline({args});
    return std::move(replies.front());
}

std::vector<Reply> RedisClient::pipeline(const std::vector<Command>& commands) {
    connect();
    try {
        auto replies = exchange(context_, commands);
        if (demoted(replies))
            throw RedisUnavailable("the redis primary became a replica (a failover)");
        return replies;
    } catch (const RedisUnavailable&) {
        drop();
        throw;
    }
}

}  // namespace squawk::redis
