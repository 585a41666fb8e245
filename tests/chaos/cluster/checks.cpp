#include "tests/chaos/cluster/checks.hpp"

#include <algorithm>

namespace squawk::chaos {
namespace {

std::string count_of(size_t n) {
    return std::to_string(n);
}

// "a, b, c" of the first few.
std::string some(const std::vector<std::string>& items) {
    std::string out;
    for (size_t i = 0; i < items.size() && i < 5; ++i) out += (i ? ", " : "") + items[i];
    return items.size() > 5 ? out + ", ..." : out;
}

}  // namespace

void Verdict::check(bool holds, const std::string& line) {
    lines_.push_back((holds ? "  ok    " : "  FAIL  ") + line);
    passed_ = passed_ && holds;
}

size_t AcceptedJobs::total() const {
    size_t n = 0;
    for (const auto& [workspace, ids] : by_workspace) n += ids.size();
    return n;
}

size_t AcceptedJobs::accepted_in(long long workspace) const {
    const auto answered = by_workspace.find(workspace);
    const auto lost = lost_by_workspace.find(workspace);
    return (answered == by_workspace.end() ? 0 : answered->second.size()) +
           (lost == lost_by_workspace.end() ? 0 : lost->second);
}

std::vector<std::string> check_jobs(db::MysqlPool& mysql, const AcceptedJobs& jobs,
                                    Verdict& verdict) {
    std::vector<std::string> unfinished, unknown, missing;
    size_t rows = 0;
    long long media = 0, media_jobs = 0;
    mysql.run([&](db::Session& s) {
        for (const auto& [workspace, ids] : jobs.by_workspace) {
            std::set<std::string> found;
            for (const auto& r : s.query(
                     "SELECT public_id, status FROM jobs WHERE workspace_id = ?", {workspace})) {
                ++rows;
                found.insert(r.text(0));
                if (!ids.count(r.text(0))) unknown.push_back(r.text(0));
                if (r.text(1) != "completed") unfinished.push_back(r.text(0) + " " + r.text(1));
            }
            for (const auto& id : ids)
                if (!found.count(id)) missing.push_back(id);
            const auto m = s.query(
                "SELECT COUNT(*), COUNT(DISTINCT source_job_id) FROM media WHERE workspace_id = ?",
                {workspace});
            media += m.at(0).integer(0);
            media_jobs += m.at(0).integer(1);
        }
    });
    verdict.check(missing.empty() && rows == jobs.total() + jobs.lost_answers &&
                      unknown.size() == jobs.lost_answers,
                  count_of(jobs.total()) + " jobs answered and " + count_of(jobs.lost_answers) +
                      " carried out with the answer lost, " + count_of(rows) +
                      " job rows; rows no answer named: " + count_of(unknown.size()) + " " +
                      some(unknown) + "; answered ids without a row: " + count_of(missing.size()) +
                      " " + some(missing));
    verdict.check(unfinished.empty(),
                  "jobs not completed: " + count_of(unfinished.size()) + " " + some(unfinished));
    const auto speech = static_cast<long long>(jobs.speech_total());
    verdict.check(media == speech && media_jobs == speech,
                  "speech files: " + std::to_string(media) + " media rows from " +
                      std::to_string(media_jobs) + " jobs for " + std::to_string(speech) +
                      " speech jobs");
    if (unknown.size() == jobs.lost_answers && missing.empty()) return {};
    unknown.insert(unknown.end(), missing.begin(), missing.end());
    return unknown;
}

void check_deliveries(db::MysqlPool& mysql, testing::FakeReceiver& receiver,
                      const std::string& path, size_t expected, Verdict& verdict) {
    long long deliveries = 0, delivered = 0;
    mysql.run([&](db::Session& s) {
        const auto r = s.query(
            "SELECT COUNT(*), COALESCE(SUM(status = 'delivered'), 0) FROM webhook_deliveries", {});
        deliveries = r.at(0).integer(0);
        delivered = r.at(0).integer(1);
    });
    std::set<std::string> events;
    long long accepted_requests = 0;
    for (const auto& request : receiver.requests(path)) {
        if (request.value("status_sent", 0) != 200) continue;
        ++accepted_requests;
        events.insert(request["headers"].value("x-service-event-id", ""));
    }
    const auto want = static_cast<long long>(expected);
    verdict.check(deliveries == want && delivered == want,
                  std::to_string(deliveries) + " webhook deliveries for " + count_of(expected) +
                      " completed jobs of the webhook's workspace, " + std::to_string(delivered) +
                      " delivered");
    verdict.check(events.size() == expected,
                  "the receiver accepted " + count_of(events.size()) + " distinct events in " +
                      std::to_string(accepted_requests) + " requests (" +
                      std::to_string(accepted_requests - static_cast<long long>(events.size())) +
                      " repeats: delivery is at least once)");
}

void check_posts(db::MysqlPool& mysql, testing::FakePlatforms& fake, long long workspace_id,
                 const std::map<std::string, std::string>& content_by_post, Verdict& verdict) {
    std::map<std::string, std::vector<std::string>> outcomes;  // post id -> target outcomes
    std::vector<std::string> unknown;
    mysql.run([&](db::Session& s) {
        for (const auto& r :
             s.query("SELECT p.id, t.status, t.error FROM social_posts p JOIN social_post_targets"
                     " t ON t.post_id = p.id WHERE p.workspace_id = ?",
                     {workspace_id})) {
            const std::string id = std::to_string(r.integer(0));
            if (!content_by_post.count(id)) unknown.push_back(id);
            std::string outcome = r.text(1);
            if (outcome == "failed") {
                const auto error =
                    nlohmann::json::parse(r.optional_text(2).value_or("{}"), nullptr, false);
                outcome += ":" + (error.is_object() ? error.value("code", "") : "");
            }
            outcomes[id].push_back(outcome);
        }
    });
    std::map<std::string, int> on_platforms;  // message text -> messages holding it
    const auto messages = fake.messages();
    for (const auto& [platform, field] : std::vector<std::pair<std::string, std::string>>{
             {"telegram", "text"}, {"discord", "content"}}) {
        const auto chats = messages.value(platform, nlohmann::json::object());
        for (const auto& [chat, list] : chats.items())
            for (const auto& message : list) ++on_platforms[message.value(field, "")];
    }
    size_t published = 0, outcome_unknown = 0, unknown_arrived = 0;
    std::vector<std::string> wrong, twice, missing;
    for (const auto& [id, content] : content_by_post) {
        const auto found = outcomes.find(id);
        const auto& targets = found == outcomes.end() ? std::vector<std::string>{} : found->second;
        const int copies = on_platforms[content];
        if (copies > 1) twice.push_back(id);
        if (targets.size() != 1) {
            wrong.push_back(id + " has " + std::to_string(targets.size()) + " targets");
        } else if (targets[0] == "published") {
            ++published;
            if (copies != 1) missing.push_back(id);
        } else if (targets[0] == "failed:PUBLISH_OUTCOME_UNKNOWN") {
            ++outcome_unknown;
            unknown_arrived += copies == 1 ? 1 : 0;
        } else {
            wrong.push_back(id + " " + targets[0]);
        }
    }
    verdict.check(unknown.empty(), count_of(content_by_post.size()) +
                                       " posts accepted; post rows no submission was told about: " +
                                       count_of(unknown.size()) + " " + some(unknown));
    verdict.check(wrong.empty(), count_of(published) + " published, " + count_of(outcome_unknown) +
                                     " failed as PUBLISH_OUTCOME_UNKNOWN (a send cut by a kill; " +
                                     count_of(unknown_arrived) + " of them had arrived), " +
                                     count_of(wrong.size()) + " otherwise " + some(wrong));
    verdict.check(twice.empty() && missing.empty(),
                  "posts on the platforms' fakes more than once: " + count_of(twice.size()) + " " +
                      some(twice) + "; published but not there: " + count_of(missing.size()) + " " +
                      some(missing));
}

WalletStart wallet_start(db::MysqlPool& mysql, long long workspace_id) {
    WalletStart start;
    mysql.run([&](db::Session& s) {
        const auto w =
            s.query("SELECT purchased_units, monthly_units FROM wallets WHERE workspace_id = ?",
                    {workspace_id});
        start.purchased = w.at(0).integer(0);
        start.monthly = w.at(0).integer(1);
        for (const auto& r :
             s.query("SELECT id FROM wallet_ledger WHERE workspace_id = ?", {workspace_id}))
            start.ledger_ids.insert(r.integer(0));
    });
    return start;
}

void check_ledger(db::MysqlPool& mysql, long long workspace_id, const WalletStart& start,
                  size_t speech_jobs, Verdict& verdict) {
    using Balances = std::pair<long long, long long>;  // purchased, monthly
    std::multiset<Balances> before_rows, after_rows;
    std::map<std::string, long long> rows_by_kind;
    long long settled_twice = 0;
    Balances now;
    mysql.run([&](db::Session& s) {
        const auto w =
            s.query("SELECT purchased_units, monthly_units FROM wallets WHERE workspace_id = ?",
                    {workspace_id});
        now = {w.at(0).integer(0), w.at(0).integer(1)};
        for (const auto& r : s.query(
                 "SELECT id, kind, purchased_delta, monthly_delta, purchased_after, monthly_after"
                 " FROM wallet_ledger WHERE workspace_id = ?",
                 {workspace_id})) {
            if (start.ledger_ids.count(r.integer(0))) continue;
            ++rows_by_kind[r.text(1)];
            const Balances after{r.integer(4), r.integer(5)};
            after_rows.insert(after);
            before_rows.insert({after.first - r.integer(2), after.second - r.integer(3)});
        }
        settled_twice = s.query(
                             "SELECT COUNT(*) FROM (SELECT reference FROM wallet_ledger WHERE"
                             " workspace_id = ? AND kind = 'settle' GROUP BY reference"
                             " HAVING COUNT(*) > 1) twice",
                             {workspace_id})
                            .at(0)
                            .integer(0);
    });
    // A chain start -> ... -> now: every state a row started from was the start or another row's
    // end, each used once; two rows built on one balance (a lost update) break it.
    before_rows.insert(now);
    after_rows.insert({start.purchased, start.monthly});
    const auto speech = static_cast<long long>(speech_jobs);
    verdict.check(before_rows == after_rows,
                  "wallet ledger: " + std::to_string(after_rows.size() - 1) +
                      " rows chain from the balance after the credit (" +
                      std::to_string(start.purchased + start.monthly) + " units) to the balance " +
                      std::to_string(now.first + now.second));
    verdict.check(rows_by_kind["reserve"] == speech && rows_by_kind["settle"] == speech &&
                      rows_by_kind["refund"] == 0 && settled_twice == 0,
                  "speech jobs: " + std::to_string(speech) + "; reserved " +
                      std::to_string(rows_by_kind["reserve"]) + ", settled " +
                      std::to_string(rows_by_kind["settle"]) + ", refunded " +
                      std::to_string(rows_by_kind["refund"]) + ", settled twice " +
                      std::to_string(settled_twice));
}

void check_rate_limit(const RateProber& prober, long long limit, long long slack,
                      Verdict& verdict) {
    long long most_by_reset = 0, most_by_minute = 0;
    for (const auto& [window, allowed] : prober.allowed_by_reset())
        most_by_reset = std::max(most_by_reset, allowed);
    for (const auto& [minute, allowed] : prober.allowed_by_minute())
        most_by_minute = std::max(most_by_minute, allowed);
    verdict.check(most_by_reset <= limit + slack && most_by_minute <= limit + slack,
                  "rate limit " + std::to_string(limit) + "/min (+" + std::to_string(slack) +
                      " lease slack): at most " + std::to_string(most_by_reset) +
                      " allowed in a window the answers named, " + std::to_string(most_by_minute) +
                      " in a calendar minute of sending; " + std::to_string(prober.refused()) +
                      " refused with 429, others: " + status_counts(prober.unavailable()));
    for (const auto& [status, answer] : prober.first_unavailable())
        verdict.info("first " + std::to_string(status) + " to the prober: " + answer);
}

}  // namespace squawk::chaos
