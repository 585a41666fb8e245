// The media a job reads (a source to transcribe, a scene's picture) as a file on this machine:
// in place when the store is local, fetched into the media directory's work folder otherwise and
// removed when the job lets go of it.
#pragma once

#include "common/core/storage/local_copy.hpp"
#include "common/domain/jobs/job.hpp"
#include "common/domain/media/media_repository.hpp"
#include "workers/tasks/task_context.hpp"

#include <string>

namespace squawk::workers::generate {

// Blocks only the fiber. PermanentError (details.field = `field`) when the store has no such
// object any more; RetryableError when it could not be reached.
storage::LocalCopy input_file(TaskContext& context, const jobs::ClaimedJob& job,
                              const media::Media& m, const std::string& field);

}  // namespace squawk::workers::generate
