// The cluster chaos run: jobs, scheduled posts and webhook deliveries submitted through HAProxy to
// the whole `make cluster-up` topology while a worker is SIGKILLed every 2 s and, one after the
// other, an API is SIGKILLed and restarted, the leading scheduler is SIGKILLed, a Galera node is
// stopped and rejoined, and the Redis primary is SIGKILLed for Sentinel to fail over. Afterwards
// every accepted task has ended and taken effect once on the fakes, the wallet's ledger chains
// from the credit to the balance, no rate-limit window let through more than the lease slack,
// and the report gives each recovery time.
//
//   squawk_chaos_cluster [--jobs N] [--posts N] [--deliveries N] [--speech-every K] [--seconds S]
// `make chaos-cluster` runs 10,000 jobs, 2,000 posts and 5,000 deliveries; CTest a short form.
// Exit code 0 only when every check holds.
#include "tests/chaos/cluster/checks.hpp"
#include "tests/chaos/cluster/faults.hpp"
#include "tests/chaos/cluster/submissions.hpp"
#include "tests/support/command_flags.hpp"
#include "tests/support/json_api.hpp"
#include "tests/support/social_fixtures.hpp"

#include <algorithm>
#include <atomic>
#include <iostream>
#include <thread>

using namespace squawk;
using namespace squawk::chaos;
using namespace std::chrono_literals;

namespace {

// Posting caps allow 25 sends per account per hour.
constexpr int kPostsPerAccount = 25;
// A key of its own, kept over its limit by the prober.
constexpr long long kProbedLimit = 300;
constexpr int kProbesPerSecond = 80;
constexpr long long kUnlimited = 100000000;

struct Options {
    int jobs = 10000;
    int posts = 2000;
    int deliveries = 5000;  // jobs of the workspace whose webhook takes job.completed
    int speech_every = 50;  // every K-th of those jobs renders speech: a file, a charge
    int seconds = 60;       // the chaos window, while submissions go on
};

Options parse(int argc, char** argv) {
    Options o;
    testing::read_int_flags(argc, argv,
                            {{"--jobs", &o.jobs},
                             {"--posts", &o.posts},
                             {"--deliveries", &o.deliveries},
                             {"--speech-every", &o.speech_every},
                             {"--seconds", &o.seconds}});
    if (o.jobs < 1 || o.posts < 0 || o.deliveries < 0 || o.deliveries > o.jobs ||
        o.speech_every < 1 || o.seconds < 15)
        throw std::invalid_argument(
            "--jobs must be positive, --deliveries at most --jobs, --seconds at least 15");
    return o;
}

// The daemons' file; cluster.sh adds MySQL, Redis, listen ports, the media folder and the secret.
std::string daemon_config(const testing::FakePlatforms& fake) {
    return "time_scale = 0.05\n\n"
           "[api]\nthreads = 2\n\n"
           "[mysql]\npool_size = 8\nconnect_timeout_ms = 1000\n\n"
           "[redis]\ntimeout_ms = 1000\n\n"
           "[jobs]\nmax_attempts = 8\nlease_seconds = 3\n\n"
           "[workers]\nshutdown_grace_seconds = 2\n\n"
           "[workers.generate]\nthreads = 2\nfibers = 16\n\n"
           "[scheduler]\ntick_ms = 50\nleader_lease_ms = 1000\nreconcile_after_seconds = 2\n\n"
           "[security]\nallow_private_targets = true\n\n"
           "[billing.prices]\ntext_to_speech = 0.01\n\n"
           // A submission cut off with its API holds its idempotency key this long: the client's
           // retries wait it out (409), so it must stay well under a post's 10 s lead.
           "[idempotency]\nlock_seconds = 5\n\n"
           "[log]\nlevel = \"info\"\n\n" +
           testing::webhook_config() + "\n" + fake.config() + "\n";
}

// The accounts the posts go to: Telegram channels and Discord webhooks, half each.
std::vector<std::string> connect_accounts(testing::JsonApi& api, testing::FakePlatforms& fake,
                                          const std::string& key, int posts) {
    std::vector<std::string> accounts;
    const int needed = (posts + kPostsPerAccount - 1) / kPostsPerAccount;
    for (int i = 0; i < needed; ++i)
        accounts.push_back(
            i % 2 == 0 ? testing::connect_telegram_channel(api, fake, key, -1003000000000LL - i)
                       : testing::connect_discord_webhook(
                             api, fake, key, std::to_string(823456789000000000LL + i)));
    return accounts;
}

struct Plan {
    std::vector<Submission> submissions;
    std::vector<long long> job_workspace;  // by submission index; 0 for a post
    std::vector<bool> speech;
    std::map<size_t, std::string> post_content;  // by submission index
};

struct Workspaces {
    long long hooked = 0, plain = 0, posts = 0;
    std::string hooked_key, plain_key, posts_key;
};

// Jobs spread over the whole window (`deliveries` of them, evenly, in the hooked workspace);
// posts sent in its first 60 %, each due 10 to 17 s after it is first sent.
Plan plan(const Options& o, const Workspaces& w, const std::vector<std::string>& accounts,
          Clock::time_point start) {
    Plan p;
    const auto window =
        std::chrono::duration_cast<Clock::duration>(std::chrono::seconds(o.seconds));
    int hooked_jobs = 0;
    for (int k = 0; k < o.jobs; ++k) {
        const bool hooked = (static_cast<long long>(k) + 1) * o.deliveries / o.jobs >
                            static_cast<long long>(k) * o.deliveries / o.jobs;
        const bool speech = hooked && hooked_jobs++ % o.speech_every == 0;
        Submission s;
        s.path = speech ? "/v1/audio/text-to-speech" : "/v1/jobs/ping";
        s.body = speech ? nlohmann::json{{"text", "Cluster chaos job number " + std::to_string(k)}}
                        : nlohmann::json{{"sleep_ms", k % 40}};
        s.key = hooked ? w.hooked_key : w.plain_key;
        s.idempotency_key = "chaos-job-" + std::to_string(k);
        s.not_before = start + window * k / o.jobs;
        p.submissions.push_back(std::move(s));
        p.job_workspace.push_back(hooked ? w.hooked : w.plain);
        p.speech.push_back(speech);
    }
    for (int k = 0; k < o.posts; ++k) {
        const auto offset = window * 6 / 10 * k / o.posts;
        const std::string content = "Cluster chaos post " + std::to_string(k);
        Submission s;
        s.path = "/v1/social/posts/schedule";
        s.body = {{"content", content},
                  {"account_ids", {accounts.at(static_cast<size_t>(k / kPostsPerAccount))}}};
        s.due_in = std::chrono::seconds(10 + k % 8);
        s.key = w.posts_key;
        s.idempotency_key = "chaos-post-" + std::to_string(k);
        s.not_before = start + offset;
        p.post_content[p.submissions.size()] = content;
        p.submissions.push_back(std::move(s));
        p.job_workspace.push_back(0);
        p.speech.push_back(false);
    }
    return p;
}

long long count(db::MysqlPool& mysql, const std::string& sql, const db::Params& params = {}) {
    try {
        return mysql.run([&](db::Session& s) { return s.query(sql, params).at(0).integer(0); });
    } catch (const std::exception&) {
        return -1;
    }
}

// The id of the post of `workspace` whose text is `content`, if there is one.
std::optional<std::string> post_with_content(db::MysqlPool& mysql, long long workspace,
                                             const std::string& content) {
    return mysql.run([&](db::Session& s) -> std::optional<std::string> {
        const auto row =
            s.query_one("SELECT id FROM social_posts WHERE workspace_id = ? AND content = ?",
                        {workspace, content});
        if (!row) return std::nullopt;
        return std::to_string(row->integer(0));
    });
}

// Seconds until `done` holds, polled every 250 ms, or -1 past `limit`.
double drain(const std::function<bool()>& done, std::chrono::seconds limit) {
    const auto start = Clock::now();
    while (!done()) {
        if (Clock::now() - start > limit) return -1;
        std::this_thread::sleep_for(250ms);
    }
    return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    try {
        options = parse(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "squawk_chaos_cluster: " << e.what() << "\n";
        return 2;
    }
    try {
        testing::FakeReceiver receiver;
        testing::FakePlatforms fake;
        std::cout << "cluster chaos run: starting three Galera nodes, Redis with Sentinels,"
                     " two APIs behind HAProxy, two workers, two schedulers\n";
        testing::LoopbackCluster cluster(daemon_config(fake));
        db::MysqlPool mysql(cluster.mysql_settings());
        testing::JsonClient api(cluster.base_url());

        Workspaces w;
        w.hooked = cluster.create_workspace("chaos hooked");
        w.plain = cluster.create_workspace("chaos plain");
        w.posts = cluster.create_workspace("chaos posts");
        const long long probed = cluster.create_workspace("chaos probed");
        w.hooked_key = cluster.create_key(w.hooked, "live", "all", kUnlimited);
        w.plain_key = cluster.create_key(w.plain, "live", "all", kUnlimited);
        w.posts_key = cluster.create_key(w.posts, "live", "all", kUnlimited);
        const std::string probed_key = cluster.create_key(probed, "live", "all", kProbedLimit);
        cluster.credit(w.hooked, "1000");
        // Fewer refusals than the endpoint's failing threshold: retried, never held.
        receiver.program(
            "/chaos",
            nlohmann::json::array(
                {{{"status", 503}}, {{"status", 503}}, {{"status", 500}}, {{"status", 503}}}));
        const auto hook = api.request(
            "POST", "/v1/webhooks",
            {{"url", receiver.url("/chaos")}, {"events", {"job.completed"}}}, w.hooked_key);
        if (hook.status != 201) throw std::runtime_error("cannot create the webhook: " + hook.body);
        const auto accounts = connect_accounts(api, fake, w.posts_key, options.posts);
        const auto wallet = wallet_start(mysql, w.hooked);

        const auto start = Clock::now() + 1s;
        const auto end = start + std::chrono::seconds(options.seconds);
        const auto work = plan(options, w, accounts, start);
        std::cout << "cluster chaos run: " << options.jobs << " jobs, " << options.posts
                  << " posts on " << accounts.size() << " accounts, " << options.deliveries
                  << " webhook deliveries over " << options.seconds << " s of chaos\n";

        Submitter submitter(cluster.base_url(), 32);
        RateProber prober(cluster.base_url(), probed_key, kProbesPerSecond);
        Faults faults(cluster, mysql);
        std::vector<Outcome> outcomes;
        Clock::time_point submitted;
        std::atomic<bool> all_submitted{false};
        std::thread submissions([&] {
            outcomes = submitter.run(work.submissions);
            submitted = Clock::now();
            all_submitted = true;
        });
        std::thread probes([&] { prober.run(end); });
        std::thread sequence([&] { faults.run_sequence(start, end); });
        faults.kill_workers(end, all_submitted);
        for (auto* t : {&submissions, &probes, &sequence}) t->join();
        const double late = std::chrono::duration<double>(submitted - end).count();

        Verdict verdict;
        AcceptedJobs jobs;
        std::map<std::string, std::string> posts;
        std::vector<std::string> refused;
        for (size_t i = 0; i < outcomes.size(); ++i) {
            auto o = outcomes[i];
            const bool post = work.post_content.count(i) > 0;
            // A post carried out with its answer lost is looked up by its text, as a client would.
            if (o.answer_lost && post)
                o.id = post_with_content(mysql, w.posts, work.post_content.at(i));
            if (o.answer_lost && !post) {
                ++jobs.lost_answers;
                ++jobs.lost_by_workspace[work.job_workspace[i]];
                if (work.speech[i]) ++jobs.speech_lost_answers;
            } else if (!o.id) {
                refused.push_back(work.submissions[i].idempotency_key + ": " + o.refusal);
            } else if (post) {
                posts[*o.id] = work.post_content.at(i);
            } else {
                jobs.by_workspace[work.job_workspace[i]].insert(*o.id);
                if (work.speech[i]) jobs.speech.insert(*o.id);
            }
        }
        verdict.check(
            refused.empty(),
            std::to_string(outcomes.size() - refused.size()) +
                " submissions accepted (answers retried: " + status_counts(submitter.retries()) +
                "), refused for good: " + std::to_string(refused.size()));
        for (const auto& line : refused) verdict.info("refused: " + line);
        const double submitting = std::chrono::duration<double>(submitted - start).count();
        verdict.check(faults.all_made() && faults.problems().empty(),
                      "every fault made and recovered from; the submissions took " +
                          std::to_string(submitting) + " s (" +
                          std::to_string(static_cast<double>(outcomes.size()) / submitting) +
                          " a second), " + std::to_string(late) +
                          " s past the window, under worker kills to the end");
        for (const auto& line : faults.problems()) verdict.info("fault: " + line);

        const auto total_jobs = static_cast<long long>(jobs.total());
        const double jobs_drain = drain(
            [&] {
                return count(mysql,
                             "SELECT COUNT(*) FROM jobs WHERE workspace_id IN (?, ?) AND status ="
                             " 'completed'",
                             {w.hooked, w.plain}) >= total_jobs;
            },
            300s);
        const double posts_drain = drain(
            [&] {
                return count(mysql,
                             "SELECT COUNT(*) FROM social_post_targets WHERE workspace_id = ? AND"
                             " status NOT IN ('published', 'failed')",
                             {w.posts}) == 0;
            },
            300s);
        const auto hooked_jobs = jobs.accepted_in(w.hooked);
        const double deliveries_drain = drain(
            [&] {
                return count(
                           mysql,
                           "SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'delivered'") >=
                       static_cast<long long>(hooked_jobs);
            },
            300s);
        verdict.info("after the chaos: jobs done in " + std::to_string(jobs_drain) +
                     " s, posts ended in " + std::to_string(posts_drain) +
                     " s, deliveries done in " + std::to_string(deliveries_drain) +
                     " s (-1: not within 300 s)");
        const auto stray_jobs = check_jobs(mysql, jobs, verdict);
        check_deliveries(mysql, receiver, "/chaos", hooked_jobs, verdict);
        check_posts(mysql, fake, w.posts, posts, verdict);
        check_ledger(mysql, w.hooked, wallet, jobs.speech_total(), verdict);
        // Each API process may spend one lease (a hundredth of the limit, at most 256 tokens)
        // granted just before a window ends during the next; the prober's one request in flight
        // can cross the boundary too.
        check_rate_limit(prober, kProbedLimit, 2 * std::min(256LL, kProbedLimit / 100) + 1,
                         verdict);
        std::vector<std::string> stopped;
        for (const std::string name :
             {"api-1", "api-2", "worker-1", "worker-2", "scheduler-1", "scheduler-2"})
            if (!cluster.pid(name)) stopped.push_back(name);
        verdict.check(stopped.empty(), "every daemon running at the end; stopped: " +
                                           std::to_string(stopped.size()));

        std::cout << "cluster chaos run: " << faults.worker_kills() << " worker SIGKILLs";
        if (auto recoveries = faults.worker_recoveries(); !recoveries.empty()) {
            std::sort(recoveries.begin(), recoveries.end());
            std::cout << "; every job running at a kill finished "
                      << recoveries[recoveries.size() / 2] << " s after it (median), "
                      << recoveries.back() << " s at most";
        }
        std::cout << "\n";
        for (const auto& r : faults.recoveries())
            std::cout << "  " << r.fault << ": " << r.measure << " after " << r.seconds << " s\n";
        for (const auto& line : verdict.lines()) std::cout << line << "\n";
        std::cout << (verdict.passed() ? "cluster chaos run: PASSED" : "cluster chaos run: FAILED")
                  << "\n";
        if (!verdict.passed()) std::cout << cluster.post_mortem();
        if (!stray_jobs.empty())
            std::cout << "---- log lines naming the stray jobs ----\n"
                      << cluster.lines_naming(stray_jobs);
        return verdict.passed() ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "squawk_chaos_cluster: " << e.what() << "\n";
        return 1;
    }
}
