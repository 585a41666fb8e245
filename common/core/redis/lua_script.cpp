#include "common/core/redis/lua_script.hpp"

#include "common/core/crypto/crypto.hpp"

#include <openssl/sha.h>

namespace squawk::redis {

LuaScript::LuaScript(std::string source) : source_(std::move(source)) {
    unsigned char digest[SHA_DIGEST_LENGTH];
    SHA1(reinterpret_cast<const unsigned char*>(source_.data()), source_.size(), digest);
    sha1_ = crypto::hex(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

Reply LuaScript::run(RedisClient& client, const std::vector<std::string>& keys,
                     const std::vector<std::string>& args) const {
    Command command{"EVALSHA", sha1_, std::to_string(keys.size())};
    command.insert(command.end(), keys.begin(), keys.end());
    command.insert(command.end(), args.begin(), args.end());
    Reply reply = client.command(command);
    if (reply.is_error() && reply.text.starts_with("NOSCRIPT")) {
        command[0] = "EVAL";
        command[1] = source_;
        reply = client.command(command);
    }
    return reply;
}

}  // namespace squawk::redis
