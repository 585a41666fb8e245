#include "common/domain/jobs/job_types.hpp"
#include "workers/generate/article_task.hpp"
#include "workers/generate/image_task.hpp"
#include "workers/generate/noop_task.hpp"
#include "workers/generate/presentation_task.hpp"
#include "workers/generate/short_task.hpp"
#include "workers/generate/text_to_speech_task.hpp"
#include "workers/generate/transcription_task.hpp"
#include "workers/generate/video_task.hpp"
#include "workers/publish/message_change_tasks.hpp"
#include "workers/publish/publish_task.hpp"
#include "workers/sync/sync_external_task.hpp"
#include "workers/tasks/task_registry.hpp"

namespace squawk::workers {

TaskRegistry builtin_tasks() {
    TaskRegistry registry;
    registry.add(jobs::kNoop.name, std::make_shared<generate::NoopTask>());
    registry.add(jobs::kTextToSpeech.name, std::make_shared<generate::TextToSpeechTask>());
    registry.add(jobs::kGenerateArticle.name, std::make_shared<generate::ArticleTask>());
    registry.add(jobs::kGenerateImage.name, std::make_shared<generate::ImageTask>());
    registry.add(jobs::kSpeechToText.name, std::make_shared<generate::TranscriptionTask>());
    registry.add(jobs::kGeneratePresentation.name, std::make_shared<generate::PresentationTask>());
    registry.add(jobs::kGenerateVideo.name, std::make_shared<generate::VideoTask>());
    registry.add(jobs::kGenerateShort.name, std::make_shared<generate::ShortTask>());
    registry.add(jobs::kSyncExternal.name, std::make_shared<sync::SyncExternalTask>());
    registry.add(jobs::kPublishTarget.name, std::make_shared<publish::PublishTask>());
    registry.add(jobs::kEditPost.name, std::make_shared<publish::EditTask>());
    registry.add(jobs::kUnpublishPost.name, std::make_shared<publish::UnpublishTask>());
    return registry;
}

}  // namespace squawk::workers
