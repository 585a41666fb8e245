// SQL of the publish worker: a target with what it needs to publish, its stage and send mark,
// the posting-cap count under the account's row lock, and the outcome that settles the post.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/jobs/job.hpp"
#include "common/domain/social/account_status.hpp"
#include "common/domain/social/post.hpp"
#include "common/domain/social/posting_caps.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace squawk::social {

// The account a target goes to, credentials still sealed.
struct PublishAccount {
    long long id = 0;
    std::string public_id;
    std::string platform;
    AccountStatus status = AccountStatus::connected;
    std::string external_id;
    std::string display_name;
    std::string handle;
    std::string credentials_sealed;
    // False once the platform refused the account's token (a health check or a refresh).
    bool token_valid = true;
    std::optional<std::string> last_error;
};

// A target moving to its next publish stage, and its post.
struct StagedTarget {
    long long target_id = 0;
    long long post_id = 0;
};

struct PublishWork {
    long long target_id = 0;
    TargetStatus target_status = TargetStatus::draft;
    // Set when an earlier attempt called the platform and recorded no outcome.
    std::optional<time::TimePoint> send_started_at;
    time::TimePoint scheduled_time;
    Post post;
    PublishAccount account;
};

// An account's sends that count against its caps: every platform's in the last hour, and
// each daily allowance's (allowance_of) in the last 24 hours.
struct AccountSends {
    std::vector<time::TimePoint> any_platform_hour;
    std::map<std::string, std::vector<time::TimePoint>> by_allowance;
    // Until when the platform asked to slow down for the account, when it did.
    std::optional<time::TimePoint> cooldown_until;
};

// A target whose platform call is about to start, and the daily allowance it counts against.
struct SendMark {
    long long target_id = 0;
    std::string allowance;
};

// What became of one target: published (`delivery` set) or failed with `error`.
struct TargetOutcome {
    struct Delivery {
        std::string external_id;
        std::optional<std::string> url;
        time::TimePoint at;
    };
    long long post_id = 0;
    long long target_id = 0;
    std::optional<Delivery> delivery;
    nlohmann::json error;  // {code, message, detail} when not delivered
    // The media fixes applied (or attempted, on a failure): an array, or null for none.
    nlohmann::json transcodes;
    // What did not go out beside a delivered message (Publication::warnings): an array, or null.
    nlohmann::json warnings;
};

// The SQL works on batches: the publish worker gathers what its fibers need into one
// transaction per step, so a burst of due posts costs a few statements per step, not per post.
class PublishRepository {
  public:
    // Loads the targets under their posts' row locks and moves every open one without a send
    // mark into `validating` (its post shows processing). One entry per id, nothing for a target
    // that does not exist; each entry shows the target as it was before.
    static std::vector<std::optional<PublishWork>> take_up(db::Session& s,
                                                           const std::vector<long long>& ids);
    // The targets run (status publishing) at `stage`; their posts show processing. For each
    // target, false when it already ended or was cancelled. Locks the posts' rows first, in id
    // order, as take_up and record_outcomes do.
    static std::vector<bool> enter_stage(db::Session& s, const std::vector<StagedTarget>& targets,
                                         PublishStage stage);
    // Locks the accounts' rows (in id order, so concurrent batches cannot deadlock) and reads
    // their cooldowns and their sends inside the cap windows. Hold the transaction until
    // mark_sending() so concurrent workers count each other's sends.
    static std::map<long long, AccountSends> lock_recent_sends(
        db::Session& s, const std::vector<long long>& account_ids, time::TimePoint now);
    // One statement per allowance for every target whose platform call is about to start.
    static void mark_sending(db::Session& s, const std::vector<SendMark>& marks,
                             time::TimePoint at);
    // The platform surely did not take the message: the send mark goes, the target waits again.
    static void clear_sending(db::Session& s, long long target_id);
    // The platform asked to slow down for the account until `until`: no send to it starts before
    // (a later cooldown already recorded stands).
    static void cool_down(db::Session& s, long long account_id, time::TimePoint until);

    // The targets' outcomes and, for each post whose last open target this was, the post's:
    // status, published_at and its post.* event. Locks the posts' rows first (in id order) so
    // that the last of several concurrent outcomes always sees the others. One entry per
    // outcome: on the first outcome of each post that settled and recycles, the post as stored
    // after settling (its next occurrence is the caller's to write).
    static std::vector<std::optional<Post>> record_outcomes(
        db::Session& s, const std::vector<TargetOutcome>& outcomes);
};

// The reclaimer's dead-letter hook for publish jobs: the target fails (its outcome is unknown
// when a send had started) and the post settles. Recycling is not continued from here.
void fail_abandoned_target(db::Session& s, const jobs::Job& job);

// The post.* event's data: the post as clients see it, error.detail per failed target and the
// media fixes applied.
nlohmann::json post_event_data(const Post& post);

}  // namespace squawk::social
