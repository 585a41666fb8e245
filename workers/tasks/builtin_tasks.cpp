#include "common/domain/jobs/job_types.hpp"
#include "workers/generate/noop_task.hpp"
#include "workers/generate/text_to_speech_task.hpp"
#include "workers/publish/message_change_tasks.hpp"
#include "workers/publish/publish_task.hpp"
#include "workers/sync/sync_external_task.hpp"
#include "workers/tasks/task_registry.hpp"

namespace squawk::workers {

TaskRegistry builtin_tasks() {
    TaskRegistry registry;
    registry.add(jobs::kNoop.name, std::make_shared<generate::NoopTask>());
    registry.add(jobs::kTextToSpeech.name, std::make_shared<generate::TextToSpeechTask>());
    registry.add(jobs::kSyncExternal.name, std::make_shared<sync::SyncExternalTask>());
    registry.add(jobs::kPublishTarget.name, std::make_shared<publish::PublishTask>());
    registry.add(jobs::kEditPost.name, std::make_shared<publish::EditTask>());
    registry.add(jobs::kUnpublishPost.name, std::make_shared<publish::UnpublishTask>());
    return registry;
}

}  // namespace squawk::workers
