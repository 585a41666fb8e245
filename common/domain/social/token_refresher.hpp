// Keeps OAuth accounts connected: refreshes access tokens that expire within the next minutes,
// one worker per account at a time (a lease on the row), merging what the platform grants over
// the stored credentials (a grant without a new refresh token keeps the old one). A refresh the
// platform refuses marks the account's token invalid with the reason, so the account must be
// reconnected; one that did not reach the platform is tried again after the lease.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/http/http_client.hpp"

#include <chrono>

namespace squawk::social {

class TokenRefresher {
  public:
    // Tokens expiring within this are refreshed.
    static constexpr std::chrono::minutes kAhead{10};
    // A refresh not recorded within this (a worker died mid-way) may be tried by another.
    static constexpr std::chrono::minutes kLease{2};
    static constexpr int kBatch = 50;

    TokenRefresher(db::MysqlPool& mysql, const config::Config& config, http::Client& http)
        : mysql_(mysql), config_(config), http_(http) {}

    // One pass over the accounts due; returns how many were refreshed.
    int run_once();

  private:
    db::MysqlPool& mysql_;
    const config::Config& config_;
    http::Client& http_;
};

}  // namespace squawk::social
