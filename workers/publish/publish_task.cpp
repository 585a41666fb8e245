#include "workers/publish/publish_task.hpp"

#include "common/core/config/config.hpp"
#include "common/domain/social/account_credentials.hpp"
#include "common/domain/social/account_repository.hpp"

#include "common/core/log/logger.hpp"
#include "common/domain/social/connector.hpp"
#include "common/domain/social/post_repository.hpp"
#include "common/domain/social/post_validation.hpp"
#include "common/domain/social/posting_caps.hpp"
#include "common/domain/social/publish_repository.hpp"
#include "common/domain/social/sent_lookup.hpp"
#include "common/domain/social/target_error.hpp"
#include "workers/errors.hpp"
#include "workers/publish/media_stage.hpp"

#include <functional>

namespace squawk::workers::publish {
namespace {

using nlohmann::json;
using social::PublishRepository;
using social::PublishWork;

bool is_open(social::TargetStatus target_status) {
    return target_status == social::TargetStatus::scheduled ||
           target_status == social::TargetStatus::queued ||
           target_status == social::TargetStatus::publishing;
}

size_t code_points(const std::string& text) {
    size_t n = 0;
    for (const unsigned char c : text)
        if ((c & 0xC0) != 0x80) ++n;
    return n;
}

// What a platform receives for the target: its text and images, keyed for deduplicated resends.
social::Message message_of(const PublishWork& work) {
    social::Message m;
    m.text = social::message_text(work.post.content, work.post.link);
    m.image_urls = work.post.media_urls;
    m.idempotency_key = "sqk-" + std::to_string(work.target_id);
    if (work.post.first_comments.is_array())
        for (const auto& comment : work.post.first_comments)
            if (comment.is_string()) m.first_comments.push_back(comment.get<std::string>());
    if (const auto* platform = social::find_platform(work.account.platform)) {
        const auto given = work.post.platform_options.find(std::string(platform->id));
        const auto options = given == work.post.platform_options.end() ? json::object() : *given;
        m.post_type = social::post_type_of(options, *platform);
        m.options = social::platform_options_of(options);
    }
    return m;
}

// The check that fails before any platform call, or nothing when the target may be sent.
std::optional<json> pre_publish_problem(const PublishWork& work, const social::Connector* c,
                                        const social::Message& m) {
    if (work.account.status != social::AccountStatus::connected)
        return target_error(social::TargetErrorCode::account_disconnected,
                            "The account was disconnected.",
                            {{"account_id", work.account.public_id}});
    if (!c || !c->limits().can_publish)
        return target_error(social::TargetErrorCode::platform_unsupported,
                            "Publishing to " + work.account.platform + " is not supported.");
    const auto& limits = c->limits();
    const size_t max_chars = !m.image_urls.empty() && limits.max_caption_chars > 0
                                 ? limits.max_caption_chars
                                 : limits.max_text_chars;
    if (max_chars > 0 && code_points(m.text) > max_chars)
        return target_error(social::TargetErrorCode::content_too_long,
                            "The text is longer than " + work.account.platform + " accepts.",
                            {{"max_chars", max_chars}, {"chars", code_points(m.text)}});
    // One video may stand where a platform takes no images; the media stage tells which it is.
    const size_t max_media =
        std::max(limits.max_images, limits.media.video_types.empty() ? size_t{0} : size_t{1});
    if (m.image_urls.size() > max_media)
        return target_error(social::TargetErrorCode::too_many_media,
                            work.account.platform + " takes at most " +
                                std::to_string(limits.max_images) + " images.",
                            {{"max_images", limits.max_images}, {"images", m.image_urls.size()}});
    return std::nullopt;
}

json cap_error(const social::CapReached& cap) {
    const std::string window = cap.limit == "hourly" ? "hour" : "24 hours";
    return target_error(social::TargetErrorCode::posting_cap_reached,
                        "The account reached its posting cap of " + std::to_string(cap.allowed) +
                            " posts per " + window + ".",
                        {{"limit", cap.limit},
                         {"allowed", cap.allowed},
                         {"retry_at", time::format_iso8601(cap.retry_at)}});
}

// How long an account cools down after a platform said to slow down without saying how long.
constexpr std::chrono::seconds kDefaultCooldown{60};

// About a minute of retries (at most 3.2 s apart) for an outcome write while MySQL restarts.
constexpr int kOutcomeWriteAttempts = 22;

class Run {
  public:
    Run(const jobs::ClaimedJob& job, TaskContext& context, PublishBatchers& batchers,
        MediaCache& media_cache, std::function<redis::RedisPool&()> redis)
        : job_(job),
          context_(context),
          batchers_(batchers),
          media_cache_(media_cache),
          redis_(std::move(redis)) {}

    json go();

  private:
    // Records the failure, settles the post and ends the job as failed.
    [[noreturn]] void fail(const json& error);
    // Nothing was sent: the job runs again when the account's cooldown ends, or the target fails
    // as rate limited when no attempt is left.
    [[noreturn]] void wait_for_cooldown(time::TimePoint until, const std::string& reason);
    // The platform refused the account's token or a permission: the account records it, so
    // later posts to it are refused before any call, and the target fails.
    [[noreturn]] void lose_access(const social::PlatformFailure& failure, const json& detail);
    json published(const std::string& external_id, const std::optional<std::string>& url,
                   const std::vector<std::string>& warnings = {});
    void record(social::TargetOutcome outcome);
    Settlement submit_outcome(social::TargetOutcome outcome);

    const jobs::ClaimedJob& job_;
    TaskContext& context_;
    PublishBatchers& batchers_;
    MediaCache& media_cache_;
    std::function<redis::RedisPool&()> redis_;
    PublishWork work_;
    json transcodes_;  // the media fixes applied or attempted, recorded with the outcome
    std::shared_ptr<const fs::OwnedFile> media_files_;  // a video's file, until the send ends
};

void Run::wait_for_cooldown(time::TimePoint until, const std::string& reason) {
    const auto retry_at = time::format_iso8601(until);
    if (job_.attempts >= job_.max_attempts)
        fail(target_error(social::TargetErrorCode::platform_rate_limited,
                          "The platform still asked to slow down for this account after " +
                              std::to_string(job_.attempts) + " attempts: " + reason,
                          {{"reason", reason}, {"retry_at", retry_at}}));
    throw RetryableError(reason + "; waiting until " + retry_at,
                         std::max(until - time::now(), time::TimePoint::duration::zero()));
}

void Run::lose_access(const social::PlatformFailure& failure, const json& detail) {
    const bool permission = failure.access == social::AccessLoss::permission_missing;
    context_.in_transaction([&](db::Session& s) {
        // A refused token may pass a later health check again (a bot re-added to its chat); a
        // missing permission stays until the account is connected again granting it.
        if (permission)
            social::AccountRepository::require_reconnect(s, work_.account.id, failure.reason);
        else
            social::AccountRepository::record_health(s, work_.account.id, false, failure.reason);
    });
    fail(target_error(social::TargetErrorCode::account_reconnect_required,
                      permission ? "The account lacks a permission this post needs; reconnect it "
                                   "granting every permission asked."
                                 : "The platform refused the account's token; reconnect it.",
                      detail));
}

void Run::record(social::TargetOutcome outcome) {
    outcome.post_id = work_.post.id;
    outcome.target_id = work_.target_id;
    outcome.transcodes = transcodes_;
    const auto settlement = submit_outcome(std::move(outcome));
    // After commit; a failed add leaves the jobs to the scheduler's reconciler.
    if (settlement.recycled)
        context_.executor().run(
            [&] { social::enqueue_publish_jobs(redis_(), {*settlement.recycled}); });
}

Settlement Run::submit_outcome(social::TargetOutcome outcome) {
    // The outcome is the only record of what the platform did: a retried job would find the
    // send mark and could only report the outcome as unknown. So the write is retried while the
    // database is briefly unreachable rather than handed to the job's retry.
    for (int failures = 0;; ++failures) {
        try {
            return batchers_.outcomes.submit(outcome);
        } catch (const db::DatabaseUnavailable& e) {
            if (failures == kOutcomeWriteAttempts - 1) throw;
            log::warn("cannot record a publish outcome yet; retrying",
                      {{"target_id", work_.target_id}, {"error", e.what()}});
        }
        context_.wait_until(time::now() + std::chrono::milliseconds(100 << std::min(failures, 5)));
    }
}

void Run::fail(const json& error) {
    social::TargetOutcome outcome;
    outcome.error = error;
    record(std::move(outcome));
    throw PermanentError(error.value("message", "publish failed"), error);
}

json Run::published(const std::string& external_id, const std::optional<std::string>& url,
                    const std::vector<std::string>& warnings) {
    social::TargetOutcome outcome;
    outcome.delivery = social::TargetOutcome::Delivery{external_id, url, time::now()};
    outcome.warnings = warnings;
    record(std::move(outcome));
    return {{"target_id", work_.target_id},
            {"status", social::TargetStatus::published},
            {"external_id", external_id},
            {"url", url ? json(*url) : json()},
            {"warnings", warnings}};
}

json Run::go() {
    const auto target_id = job_.payload.value("target_id", 0LL);
    // Loaded and moved into `validating` together with the other fibers' targets.
    auto loaded = batchers_.take_up.submit(target_id);
    if (!loaded) throw PermanentError("publish target " + std::to_string(target_id) + " not found");
    work_ = std::move(*loaded);
    const bool resuming_send = work_.send_started_at.has_value();
    if (!is_open(work_.target_status))
        return {{"target_id", target_id}, {"status", work_.target_status}};

    if (!context_.http()) throw PermanentError("this worker has no HTTP client for publishing");
    const auto connector =
        social::make_connector(work_.account.platform, context_.config().social, *context_.http());
    auto message = message_of(work_);
    message.check_url = target_check(context_);
    social::Target target;
    target.identity = {work_.account.external_id, work_.account.display_name, work_.account.handle};

    if (!resuming_send)
        if (auto problem = pre_publish_problem(work_, connector.get(), message)) fail(*problem);
    if (!resuming_send && !work_.account.token_valid)
        fail(target_error(social::TargetErrorCode::account_reconnect_required,
                          "The platform refused the account's token; reconnect it.",
                          {{"reason", work_.account.last_error.value_or("")}}));
    if (connector) {
        try {
            target.credentials = social::open_credentials(context_.config().security,
                                                          work_.account.credentials_sealed);
        } catch (const std::exception&) {
            fail(target_error(social::TargetErrorCode::account_reconnect_required,
                              "The account's credentials cannot be opened; reconnect it."));
        }
    }
    // An earlier attempt called the platform and recorded no outcome: only a platform that
    // deduplicates the repeat may be asked again; another is asked whether the message is out.
    if (resuming_send && !(connector && connector->resends_safely(target))) {
        if (connector)
            if (const auto sent =
                    social::find_sent(*connector, target, message, *work_.send_started_at))
                return published(sent->external_id, sent->url);
        fail(target_error(social::TargetErrorCode::publish_outcome_unknown,
                          "publish outcome unknown: an earlier attempt sent the message and "
                          "recorded no answer, nor does the platform list it; it is not sent "
                          "again",
                          {{"send_started_at", time::format_iso8601(*work_.send_started_at)}}));
    }

    // Media is probed ahead of the send time, like the other checks.
    if (!resuming_send && !message.image_urls.empty()) {
        // Batched with the other fibers' targets. One that ended or was cancelled meanwhile (its
        // post deleted) is not sent.
        if (!batchers_.media_stage.submit({work_.target_id, work_.post.id}))
            return {
                {"target_id", work_.target_id},
                {"skipped", "the target ended or was cancelled before its media were prepared"}};
        auto media =
            process_media(job_, context_, media_cache_, work_.target_id, *connector, message);
        transcodes_ = std::move(media.fixes);
        media_files_ = std::move(media.files);
        if (media.problem) fail(*media.problem);
    }
    if (job_.run_after) context_.wait_until(*job_.run_after);
    if (!resuming_send) {
        // Caps and the send mark under the account's row lock, batched with the other fibers'
        // sends: concurrent fibers and workers count each other's sends.
        const auto decision = batchers_.gate.submit(
            SendRequest{work_.target_id, work_.account.id,
                        social::allowance_of(work_.account.platform, message.video.has_value()),
                        work_.post.is_test});
        if (decision.cooldown_until)
            wait_for_cooldown(*decision.cooldown_until,
                              "the platform asked to slow down for this account");
        if (decision.cap) fail(cap_error(*decision.cap));
    }

    if (work_.post.is_test) {
        // Sandbox: every check ran; nothing reaches the platform and nothing is charged.
        const std::string id = "sandbox-" + std::to_string(work_.target_id);
        return published(id, "https://sandbox.squawk.invalid/" + work_.account.platform + "/" + id);
    }

    const auto send_began = time::now();
    const auto publication = connector->publish(target, message);
    if (!publication.failure)
        return published(publication.message_id, publication.url, publication.warnings);

    const auto& failure = *publication.failure;
    const json detail = {{"http_status", failure.http_status}, {"reason", failure.reason}};
    if (failure.rate_limited) {
        // The account's other posts wait too: the platform counts the account's calls.
        const auto until =
            time::now() + time::scaled(failure.retry_after.value_or(kDefaultCooldown));
        context_.in_transaction([&](db::Session& s) {
            PublishRepository::clear_sending(s, work_.target_id);
            PublishRepository::cool_down(s, work_.account.id, until);
        });
        wait_for_cooldown(until, failure.reason);
    }
    switch (failure.kind) {
        case social::FailureKind::unknown_outcome:
            if (const auto sent = social::find_sent(*connector, target, message, send_began))
                return published(sent->external_id, sent->url);
            fail(target_error(social::TargetErrorCode::publish_outcome_unknown,
                              "publish outcome unknown: " + failure.reason, detail));
        case social::FailureKind::refused:
            if (failure.access != social::AccessLoss::none) lose_access(failure, detail);
            fail(target_error(social::TargetErrorCode::platform_refused, failure.reason, detail));
        case social::FailureKind::not_accepted:
            break;
    }
    if (job_.attempts >= job_.max_attempts)
        fail(target_error(social::TargetErrorCode::platform_unavailable,
                          "The platform did not accept the message after " +
                              std::to_string(job_.attempts) + " attempts: " + failure.reason,
                          detail));
    // Surely not taken: the mark goes and the job retries after the backoff (or the platform's
    // cooldown, when it named one).
    context_.in_transaction(
        [&](db::Session& s) { PublishRepository::clear_sending(s, work_.target_id); });
    throw RetryableError(failure.reason,
                         time::scaled(failure.retry_after.value_or(std::chrono::seconds(0))));
}

}  // namespace

PublishBatchers::PublishBatchers(db::MysqlPool& mysql)
    : take_up(mysql, &PublishRepository::take_up, kMaxBatch, kLinger),
      media_stage(
          mysql,
          [](db::Session& s, const std::vector<social::StagedTarget>& targets) {
              return PublishRepository::enter_stage(s, targets,
                                                    social::PublishStage::processing_media);
          },
          kMaxBatch, kLinger),
      gate(mysql, &admit_sends, kMaxBatch),
      outcomes(mysql, &write_outcomes, kMaxBatch, kLinger) {}

json PublishTask::run(const jobs::ClaimedJob& job, TaskContext& context) {
    Run run(job, context, batchers(context.mysql()), media_cache(context.config()),
            [&]() -> redis::RedisPool& { return redis(context.config()); });
    return run.go();
}

PublishBatchers& PublishTask::batchers(db::MysqlPool& mysql) {
    std::lock_guard lock(mutex_);
    if (!batchers_) batchers_ = std::make_unique<PublishBatchers>(mysql);
    return *batchers_;
}

MediaCache& PublishTask::media_cache(const config::Config& config) {
    std::lock_guard lock(mutex_);
    if (!media_cache_) media_cache_ = publish_media_cache(config);
    return *media_cache_;
}

redis::RedisPool& PublishTask::redis(const config::Config& config) {
    std::lock_guard lock(mutex_);
    if (!redis_) redis_ = std::make_unique<redis::RedisPool>(config.redis, 2);
    return *redis_;
}

}  // namespace squawk::workers::publish
