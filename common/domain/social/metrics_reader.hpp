// Reads what the platforms report of each connected account (followers first of all) a few
// times a day, one worker per account at a time (a lease on the row), and keeps the day's latest
// reading. An account whose platform exposes nothing, or that did not answer, is asked again
// later.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/http/http_client.hpp"

#include <chrono>

namespace squawk::social {

class MetricsReader {
  public:
    // Between two readings of an account.
    static constexpr std::chrono::hours kEvery{6};
    // A reading not recorded within this (a worker died mid-way) may be taken by another; also
    // the wait after a platform that did not answer.
    static constexpr std::chrono::minutes kLease{10};
    static constexpr int kBatch = 50;

    MetricsReader(db::MysqlPool& mysql, const config::Config& config, http::Client& http)
        : mysql_(mysql), config_(config), http_(http) {}

    // One pass over the accounts due; returns how many readings were recorded.
    int run_once();

  private:
    db::MysqlPool& mysql_;
    const config::Config& config_;
    http::Client& http_;
};

}  // namespace squawk::social
