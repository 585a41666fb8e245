#include "common/core/redis/redis_client.hpp"

#include <hiredis/hiredis.h>

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
    timeval timeout{settings_.timeout_ms / 1000, (settings_.timeout_ms % 1000) * 1000};
    context_ = redisConnectWithTimeout(settings_.host.c_str(), settings_.port, timeout);
    if (!context_ || context_->err) {
        const std::string why = context_ ? context_->errstr : "out of memory";
        drop();
        throw RedisUnavailable("cannot connect to redis: " + why);
    }
    redisSetTimeout(context_, timeout);
    if (!settings_.password.empty()) {
        const Reply auth = command({"AUTH", settings_.password});
        if (auth.is_error()) {
            drop();
            throw RedisUnavailable("redis refused the password");
        }
    }
}

Reply RedisClient::command(const Command& args) {
    auto replies = pipeline({args});
    return std::move(replies.front());
}

std::vector<Reply> RedisClient::pipeline(const std::vector<Command>& commands) {
    connect();
    std::vector<const char*> argv;
    std::vector<size_t> argvlen;
    for (const auto& cmd : commands) {
        argv.clear();
        argvlen.clear();
        for (const auto& a : cmd) {
            argv.push_back(a.data());
            argvlen.push_back(a.size());
        }
        if (redisAppendCommandArgv(context_, static_cast<int>(argv.size()), argv.data(),
                                   argvlen.data()) != REDIS_OK) {
            const std::string why = context_->errstr;
            drop();
            throw RedisUnavailable("redis write failed: " + why);
        }
    }
    std::vector<Reply> replies;
    replies.reserve(commands.size());
    for (size_t i = 0; i < commands.size(); ++i) {
        void* raw = nullptr;
        if (redisGetReply(context_, &raw) != REDIS_OK || !raw) {
            const std::string why = context_->errstr;
            drop();
            throw RedisUnavailable("redis read failed: " + why);
        }
        ReplyPtr reply(static_cast<redisReply*>(raw));
        replies.push_back(copy(reply.get()));
    }
    return replies;
}

}  // namespace squawk::redis
