// Grants every wallet its monthly allowance when its cycle ends (billing.monthly_allowance),
// recording the change in the ledger; a wallet that never had a cycle gets one at once.
#pragma once

#include "common/core/db/mysql_pool.hpp"

namespace squawk::scheduler {

class MonthlyAllowance {
  public:
    MonthlyAllowance(db::MysqlPool& mysql, long long allowance_units)
        : mysql_(mysql), allowance_units_(allowance_units) {}
    // Returns how many wallets were reset.
    int run_once();

  private:
    db::MysqlPool& mysql_;
    long long allowance_units_;
};

}  // namespace squawk::scheduler
