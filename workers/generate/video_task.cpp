#include "workers/generate/video_task.hpp"

#include "common/core/fs/work_files.hpp"
#include "common/core/process/subprocess.hpp"
#include "common/domain/generation/image_provider_choice.hpp"
#include "common/domain/generation/video_request.hpp"
#include "common/domain/generation/wav_info.hpp"
#include "common/domain/media/media_inspector.hpp"
#include "workers/generate/created_files.hpp"
#include "workers/generate/ffmpeg_run.hpp"
#include "workers/generate/input_media.hpp"
#include "workers/generate/job_provider_calls.hpp"
#include "workers/generate/provider_call.hpp"
#include "workers/generate/video_composition.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <system_error>

namespace squawk::workers::generate {
namespace {

namespace fs = std::filesystem;

// The title card's own limit on its title (the cards provider's check()).
constexpr size_t kCardTitleChars = 120;

// Speaks `request` into `wav`; its length is read from the file itself.
double narrate(TaskContext& context, const generation::SpeechProvider& speech,
               generation::SpeechRequest request, const fs::path& wav, JobProviderCalls& calls) {
    call_provider([&] { return speech.synthesize(request, wav, calls); });
    return context.executor().run([&] {
        const auto info = generation::parse_wav(squawk::fs::read_file(wav).value_or(""));
        if (!info || info->duration_seconds <= 0)
            throw RetryableError("the speech provider wrote no usable WAV file");
        return info->duration_seconds;
    });
}

// The file of the scene's own picture: a ready image of the job's workspace.
storage::LocalCopy media_picture(TaskContext& context, const jobs::ClaimedJob& job,
                                 const std::string& media_id, const std::string& field) {
    const auto found = context.in_database([&](db::Session& s) {
        return media::MediaRepository::find(s, job.workspace_id, media_id);
    });
    if (!found || found->status != "ready" || found->kind != "image")
        throw PermanentError("the scene's image is no longer a ready image of the workspace",
                             {{"field", field}});
    return input_file(context, job, *found, field);
}

// A title card of the scene's text (the video's title beneath it), rendered as a PNG.
fs::path card_picture(const generation::ImageProviderChoice& cards,
                      const generation::VideoRequest& request, const std::string& text,
                      const fs::path& png, JobProviderCalls& calls) {
    generation::ImageRequest card;
    card.template_name = "title";
    card.title = shortened(text, kCardTitleChars);
    card.subtitle = request.title;
    card.size = card_size_for(request.size);
    card.format = generation::ImageFormat::png;
    const auto problems = cards.provider->check(card);
    if (!problems.empty())
        throw PermanentError("cannot draw the scene's card: " + problems.front().field + " " +
                             problems.front().message);
    call_provider([&] { return cards.provider->generate(card, png, calls); });
    return png;
}

}  // namespace

nlohmann::json VideoTask::run(const jobs::ClaimedJob& job, TaskContext& context) {
    generation::VideoRequest request;
    try {
        request = generation::VideoRequest::from_json(job.payload);
    } catch (const std::invalid_argument& e) {
        throw PermanentError(e.what());
    }
    const auto& config = context.config();
    const auto speech = configured<generation::SpeechProvider>(config);
    const bool needs_cards =
        std::any_of(request.scenes.begin(), request.scenes.end(),
                    [](const generation::VideoScene& s) { return s.image_media_id.empty(); });
    generation::ImageRequest title_card;
    title_card.template_name = "title";
    const auto cards =
        needs_cards ? generation::choose_image_provider(providers::registered(), config, title_card)
                    : generation::ImageProviderChoice{};
    if (needs_cards && !cards.provider)
        throw PermanentError("no image provider renders the title card any more",
                             {{"code", "MODEL_NOT_AVAILABLE"}, {"setting", "generation.image"}});

    // Narrations and cards, removed however the job ends.
    const auto work = [&] {
        try {
            return std::make_unique<squawk::fs::ScratchDirectory>("squawk-video-" + job.public_id +
                                                                  "-");
        } catch (const std::system_error& e) {
            throw RetryableError(e.what());
        }
    }();
    JobProviderCalls calls(context);
    const size_t count = request.scenes.size();
    std::vector<SceneClip> clips(count);
    for (size_t i = 0; i < count; ++i) {
        clips[i].narration = work->path() / ("narration-" + std::to_string(i) + ".wav");
        generation::SpeechRequest spoken;
        spoken.text = request.scenes[i].text;
        spoken.voice = request.voice;
        clips[i].narration_seconds =
            narrate(context, *speech.instance, spoken, clips[i].narration, calls);
        context.report_progress(static_cast<int>(10 * (i + 1) / count), "narrating");
    }
    // The scenes' own pictures, readable until the video is composed.
    std::vector<storage::LocalCopy> pictures;
    pictures.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        const auto& scene = request.scenes[i];
        if (scene.image_media_id.empty()) {
            clips[i].picture =
                card_picture(cards, request, scene.text,
                             work->path() / ("card-" + std::to_string(i) + ".png"), calls);
        } else {
            pictures.push_back(media_picture(context, job, scene.image_media_id,
                                             "scenes[" + std::to_string(i) + "].image_media_id"));
            clips[i].picture = pictures.back().path();
        }
        context.report_progress(10 + static_cast<int>(30 * (i + 1) / count), "drawing");
    }

    double planned_seconds = 0;
    nlohmann::json scene_durations = nlohmann::json::array();
    for (const auto& clip : clips) {
        scene_durations.push_back(scene_seconds(clip.narration_seconds));
        planned_seconds += scene_seconds(clip.narration_seconds);
    }
    CreatedFile file(job, config, "main", "mp4");
    prepare_directory(context, file.directory);
    context.report_progress(40, "composing");
    run_ffmpeg(context, compose_arguments(kFfmpeg, clips, request.size, file.temp.path()),
               planned_seconds, calls, "compose the video");
    context.report_progress(90, "recording");

    const auto made = context.executor().run([&] {
        try {
            return media::inspect_media(file.temp.path().string(), config.media);
        } catch (const media::UnacceptableMedia& e) {
            throw PermanentError(std::string("ffmpeg wrote an unreadable video: ") + e.what());
        }
    });
    file.record.kind = "video";
    file.record.mime_type = "video/mp4";
    file.record.width = made.width.value_or(request.size.width);
    file.record.height = made.height.value_or(request.size.height);
    file.record.duration_seconds = made.duration_seconds.value_or(planned_seconds);
    const nlohmann::json output{{"width", *file.record.width},
                                {"height", *file.record.height},
                                {"duration_seconds", *file.record.duration_seconds},
                                {"scenes", count},
                                {"scene_durations", std::move(scene_durations)},
                                {"provider", "ffmpeg"},
                                {"voice", request.voice}};
    const auto recorded = record_creation(context, job, output, {&file},
                                          billing::whole_seconds(*file.record.duration_seconds));
    const auto& stored = recorded.media.front();
    return {{"video_id", recorded.public_id},  {"media_id", stored.public_id},
            {"mime_type", stored.mime_type},   {"width", *file.record.width},
            {"height", *file.record.height},   {"duration_seconds", *file.record.duration_seconds},
            {"size_bytes", stored.size_bytes}, {"download_url", download_url(config, stored)}};
}

}  // namespace squawk::workers::generate
