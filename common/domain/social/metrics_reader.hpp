// Reads what the platforms report of each connected account (followers first of all) a few
// times a day, and of each post published in the last 30 days on a schedule that thins as the
// post ages, one worker per account or post target at a time (a lease on the row), keeping the
// day's latest reading. An account or post whose platform exposes nothing, or that did not
// answer, is asked again later.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/http/http_client.hpp"

#include <chrono>
#include <vector>

namespace squawk::social {

class MetricsReader {
  public:
    // Between two readings of an account.
    static constexpr std::chrono::hours kEvery{6};
    // A reading not recorded within this (a worker died mid-way) may be taken by another; also
    // the wait after a platform that did not answer.
    static constexpr std::chrono::minutes kLease{10};
    static constexpr int kBatch = 50;
    // How long after publishing a post's counts are read.
    static constexpr std::chrono::days kPostWindow{30};

    MetricsReader(db::MysqlPool& mysql, const config::Config& config, http::Client& http)
        : mysql_(mysql), config_(config), http_(http) {}

    // One pass over the accounts due, then one over the post targets due; returns how many
    // readings were recorded.
    int run_once();

    // Between two readings of a post published `age` ago.
    static std::chrono::hours post_interval(std::chrono::microseconds age);

  private:
    int read_accounts();
    int read_posts();
    // The lease/batch pattern both passes share: reads each leased item through its account's
    // connector (`ask`), and `store`s the reading (nullptr: the platform exposes none).
    template <class Due, class Ask, class Store>
    int read_each(const std::vector<Due>& due, Ask ask, Store store);

    db::MysqlPool& mysql_;
    const config::Config& config_;
    http::Client& http_;
};

}  // namespace squawk::social
