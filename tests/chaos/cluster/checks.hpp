// What must hold after the cluster run, read from MySQL and from the fakes that received the
// effects: every accepted task ended and took effect once, the wallet's ledger chains from the
// credit to the balance, and no rate-limit window let through more than the documented slack.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "tests/chaos/cluster/submissions.hpp"
#include "tests/support/fake_platforms.hpp"
#include "tests/support/fake_receiver.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace squawk::chaos {

// The report's lines; a failed check marks the run failed.
class Verdict {
  public:
    void check(bool holds, const std::string& line);
    void info(const std::string& line) { lines_.push_back("  " + line); }
    bool passed() const { return passed_; }
    const std::vector<std::string>& lines() const { return lines_; }

  private:
    std::vector<std::string> lines_;
    bool passed_ = true;
};

// Job ids answered by the API, per workspace, and which of them render speech; and the jobs
// carried out whose answer was lost (their ids unknown to the client).
struct AcceptedJobs {
    std::map<long long, std::set<std::string>> by_workspace;
    std::set<std::string> speech;
    size_t lost_answers = 0;
    std::map<long long, size_t> lost_by_workspace;
    size_t speech_lost_answers = 0;
    size_t total() const;  // answered
    // Answered or carried out with the answer lost.
    size_t accepted_in(long long workspace) const;
    size_t speech_total() const { return speech.size() + speech_lost_answers; }
};

// Every accepted job completed, once: the rows are the answered jobs plus one per lost answer.
// Returns the ids of job rows no answer named and of answers naming no row, to trace in the logs.
std::vector<std::string> check_jobs(db::MysqlPool& mysql, const AcceptedJobs& jobs,
                                    Verdict& verdict);

// Each completed job of the webhook's workspace raised one delivery, every delivery was delivered,
// and the receiver accepted every event at least once (repeats are reported: at least once).
void check_deliveries(db::MysqlPool& mysql, testing::FakeReceiver& receiver,
                      const std::string& path, size_t expected, Verdict& verdict);

// Every accepted post ended published, or failed because a send's outcome was lost, and the
// platforms' fakes hold each post's message at most once (exactly once when published).
void check_posts(db::MysqlPool& mysql, testing::FakePlatforms& fake, long long workspace_id,
                 const std::map<std::string, std::string>& content_by_post, Verdict& verdict);

// The wallet before the run: balances and the ledger rows already there.
struct WalletStart {
    long long purchased = 0;
    long long monthly = 0;
    std::set<long long> ledger_ids;
};
WalletStart wallet_start(db::MysqlPool& mysql, long long workspace_id);
// The run's ledger rows chain from the start to the balance now (each row's balance before it is
// the one another row, or the start, left), and each speech job reserved and settled once.
void check_ledger(db::MysqlPool& mysql, long long workspace_id, const WalletStart& start,
                  size_t speech_jobs, Verdict& verdict);

// No window let through more than `limit` + `slack`.
void check_rate_limit(const RateProber& prober, long long limit, long long slack, Verdict& verdict);

}  // namespace squawk::chaos
