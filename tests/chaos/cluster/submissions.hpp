// Clients of the cluster run: submissions sent through HAProxy at their moment, each retried with
// its own X-Idempotency-Key until the API accepts it once, and a prober that keeps one rate-limited
// key over its limit.
#pragma once

#include "tests/support/http_client.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace squawk::chaos {

using Clock = std::chrono::steady_clock;

// "12 x 503, 3 x no answer" (status 0: no answer), or "none".
std::string status_counts(const std::map<long, long long>& counts);

struct Submission {
    std::string path;
    // The same at every attempt, as an idempotent retry must be.
    nlohmann::json body;
    // When set, the body's scheduled_time is this far after the first attempt (a late send still
    // asks for a time ahead of it).
    std::optional<std::chrono::seconds> due_in;
    std::string key;
    std::string idempotency_key;
    Clock::time_point not_before;
};

// What became of one submission: the id the API answered (job_id, or a post's id), the API's
// word that it was carried out but its answer lost (409 answer_lost: the key will not run it
// again, and the result must be looked up), or the refusal that ended its retries (a 4xx other
// than 409 and 429).
struct Outcome {
    std::optional<std::string> id;
    bool answer_lost = false;
    std::string refusal;
    int attempts = 0;
};

class Submitter {
  public:
    Submitter(std::string base_url, int threads)
        : base_url_(std::move(base_url)), threads_(threads) {}

    // Sends every submission (in order of not_before) until each is accepted or refused for good;
    // outcomes by index. Retries back off from 20 ms to 500 ms.
    std::vector<Outcome> run(const std::vector<Submission>& submissions);
    // Answers that were not an acceptance and were retried, by status (0: no answer).
    std::map<long, long long> retries() const;

  private:
    Outcome submit(testing::HttpClient& http, const Submission& submission);

    std::string base_url_;
    int threads_;
    mutable std::mutex mutex_;
    std::map<long, long long> retries_;
};

// GET /v1/me with a key limited to `limit` requests a minute, `per_second` times a second,
// counted by the window the answer names (X-RateLimit-Reset) and by the minute it was sent in.
class RateProber {
  public:
    RateProber(std::string base_url, std::string key, int per_second)
        : base_url_(std::move(base_url)), key_(std::move(key)), per_second_(per_second) {}

    void run(Clock::time_point until);
    // Requests answered 200 per window: by X-RateLimit-Reset, and by calendar minute of sending.
    const std::map<long long, long long>& allowed_by_reset() const { return by_reset_; }
    const std::map<long long, long long>& allowed_by_minute() const { return by_minute_; }
    long long refused() const { return refused_; }
    // Answers neither 200 nor 429, by status (0: no answer).
    const std::map<long, long long>& unavailable() const { return unavailable_; }
    // The first such answer's body of each status, and when it came.
    const std::map<long, std::string>& first_unavailable() const { return first_unavailable_; }

  private:
    std::string base_url_;
    std::string key_;
    int per_second_;
    std::map<long long, long long> by_reset_;
    std::map<long long, long long> by_minute_;
    long long refused_ = 0;
    std::map<long, long long> unavailable_;
    std::map<long, std::string> first_unavailable_;
};

}  // namespace squawk::chaos
