// The job types Squawk runs and the worker pool that runs each.
#pragma once

#include <optional>
#include <string_view>

namespace squawk::jobs {

struct JobType {
    std::string_view name;
    std::string_view pool;
    // Whether the job's own events (job.completed, job.failed) are emitted. Internal jobs that
    // carry out another resource's work announce through that resource's events instead.
    bool announced = true;
};

inline constexpr JobType kTextToSpeech{"audio.text_to_speech", "generate"};
// Generation jobs that make a creation (common/domain/generation/creation.hpp); the payload is
// the request as accepted.
inline constexpr JobType kGenerateArticle{"articles.generate", "generate"};
inline constexpr JobType kGenerateImage{"images.generate", "generate"};
inline constexpr JobType kSpeechToText{"audio.speech_to_text", "generate"};
inline constexpr JobType kGeneratePresentation{"presentations.generate", "generate"};
inline constexpr JobType kGenerateVideo{"videos.generate", "generate"};
inline constexpr JobType kGenerateShort{"shorts.generate", "generate"};
// Does nothing; measures the job path itself (benchmarks, chaos runs).
inline constexpr JobType kNoop{"noop", "generate"};
// Publishes one post target (payload {"target_id"}); the post.* events tell its outcome.
inline constexpr JobType kPublishTarget{"social.publish", "publish", false};
// Edits the messages of a published post (payload {"post_id", "content", "link"}).
inline constexpr JobType kEditPost{"social.edit", "publish"};
// Deletes the messages of a published post from its platforms (payload {"post_id"}).
inline constexpr JobType kUnpublishPost{"social.unpublish", "publish"};
// Imports posts published natively on the workspace's accounts (payload {"account_ids"}).
inline constexpr JobType kSyncExternal{"social.sync_external", "sync"};

std::optional<JobType> find_job_type(std::string_view name);
// Whether jobs of this type emit job.* events (types this build does not know do).
bool is_announced(std::string_view name);

}  // namespace squawk::jobs
