// A Lua script run with EVALSHA, falling back to EVAL (which also caches it on the server) when
// the server does not know it yet, for example after a restart or a SCRIPT FLUSH.
#pragma once

#include "common/core/redis/redis_client.hpp"

#include <string>
#include <vector>

namespace squawk::redis {

class LuaScript {
  public:
    explicit LuaScript(std::string source);
    Reply run(RedisClient& client, const std::vector<std::string>& keys,
              const std::vector<std::string>& args) const;
    const std::string& sha1() const { return sha1_; }

  private:
    std::string source_;
    std::string sha1_;
};

}  // namespace squawk::redis
