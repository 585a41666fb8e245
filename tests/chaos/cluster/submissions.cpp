#include "tests/chaos/cluster/submissions.hpp"

#include "common/core/time/clock.hpp"

#include <algorithm>
#include <numeric>
#include <thread>

namespace squawk::chaos {
namespace {

using namespace std::chrono_literals;

bool accepted(long status) {
    return status == 200 || status == 201 || status == 202;
}

// Worth sending again: the server or the way to it failed, or the first attempt is still running.
bool retryable(long status) {
    return status == 0 || status == 409 || status == 429 || status >= 500;
}

std::optional<std::string> answered_id(const nlohmann::json& answer) {
    if (!answer.is_object()) return std::nullopt;
    const auto& data = answer.value("data", nlohmann::json::object());
    if (data.contains("job_id")) return data["job_id"].get<std::string>();
    if (data.contains("id")) return data["id"].dump();
    return std::nullopt;
}

long long unix_seconds_now() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

std::string status_counts(const std::map<long, long long>& counts) {
    std::string out;
    for (const auto& [status, times] : counts)
        out += (out.empty() ? "" : ", ") + std::to_string(times) + " x " +
               (status == 0 ? std::string("no answer") : std::to_string(status));
    return out.empty() ? "none" : out;
}

std::vector<Outcome> Submitter::run(const std::vector<Submission>& submissions) {
    std::vector<size_t> order(submissions.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return submissions[a].not_before < submissions[b].not_before;
    });
    std::vector<Outcome> outcomes(submissions.size());
    std::atomic<size_t> next{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < threads_; ++t)
        threads.emplace_back([&] {
            testing::HttpClient http(base_url_);
            for (size_t i = next++; i < order.size(); i = next++) {
                const auto& submission = submissions[order[i]];
                std::this_thread::sleep_until(submission.not_before);
                outcomes[order[i]] = submit(http, submission);
            }
        });
    for (auto& t : threads) t.join();
    return outcomes;
}

Outcome Submitter::submit(testing::HttpClient& http, const Submission& submission) {
    const testing::Headers headers = {{"Authorization", "Bearer " + submission.key},
                                      {"Content-Type", "application/json"},
                                      {"X-Idempotency-Key", submission.idempotency_key}};
    auto fields = submission.body;
    if (submission.due_in)
        fields["scheduled_time"] = time::format_iso8601(time::now() + *submission.due_in);
    const std::string body = fields.dump();
    Outcome outcome;
    for (;;) {
        ++outcome.attempts;
        long status = 0;
        nlohmann::json answer;
        std::string raw;
        try {
            const auto r = http.send("POST", submission.path, body, headers, 30s);
            status = r.status;
            answer = r.json;
            raw = r.body;
        } catch (const std::exception&) {
            // No answer: the API died or HAProxy gave up on it; the key makes the retry safe.
        }
        if (accepted(status)) {
            outcome.id = answered_id(answer);
            if (!outcome.id)
                outcome.refusal =
                    "accepted with " + std::to_string(status) + " but no id in the answer: " + raw;
            return outcome;
        }
        const auto details = answer.is_object() ? answer.value("error", nlohmann::json::object())
                                                      .value("details", nlohmann::json::object())
                                                : nlohmann::json::object();
        if (status == 409 && details.value("reason", "") == "answer_lost") {
            outcome.answer_lost = true;
            return outcome;
        }
        if (!retryable(status)) {
            outcome.refusal = std::to_string(status) + " " + answer.dump();
            return outcome;
        }
        {
            std::lock_guard lock(mutex_);
            ++retries_[status];
        }
        std::this_thread::sleep_for(
            std::chrono::milliseconds(std::min(500, 20 << std::min(outcome.attempts, 5))));
    }
}

std::map<long, long long> Submitter::retries() const {
    std::lock_guard lock(mutex_);
    return retries_;
}

void RateProber::run(Clock::time_point until) {
    testing::HttpClient http(base_url_);
    const testing::Headers headers = {{"Authorization", "Bearer " + key_}};
    const auto interval = std::chrono::microseconds(1000000 / per_second_);
    // A fixed pace that never catches up in a burst after a slow answer: a burst would pile
    // requests into the moment the cluster is at its worst.
    for (auto at = Clock::now(); at < until; at = std::max(at + interval, Clock::now())) {
        std::this_thread::sleep_until(at);
        const long long minute = unix_seconds_now() / 60;
        try {
            const auto r = http.send("GET", "/v1/me", std::nullopt, headers, 2s);
            if (r.status == 200) {
                ++by_reset_[std::stoll(r.header("x-ratelimit-reset"))];
                ++by_minute_[minute];
            } else if (r.status == 429) {
                ++refused_;
            } else if (++unavailable_[r.status] == 1) {
                first_unavailable_[r.status] = time::format_iso8601(time::now()) + " " + r.body;
            }
        } catch (const std::exception&) {
            ++unavailable_[0];
        }
    }
}

}  // namespace squawk::chaos
