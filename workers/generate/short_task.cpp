#include "workers/generate/short_task.hpp"

#include "common/core/fs/work_files.hpp"
#include "common/core/process/subprocess.hpp"
#include "common/domain/generation/ass_captions.hpp"
#include "common/domain/generation/caption_styles.hpp"
#include "common/domain/generation/clip_plan.hpp"
#include "common/domain/generation/short_request.hpp"
#include "common/domain/media/media_inspector.hpp"
#include "common/domain/media/media_repository.hpp"
#include "workers/generate/created_files.hpp"
#include "workers/generate/ffmpeg_run.hpp"
#include "workers/generate/input_media.hpp"
#include "workers/generate/job_provider_calls.hpp"
#include "workers/generate/media_transcription.hpp"
#include "workers/generate/provider_call.hpp"
#include "workers/generate/short_render.hpp"

#include <algorithm>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <system_error>

namespace squawk::workers::generate {
namespace {

namespace fs = std::filesystem;

// ffmpeg renders a 1080x1920 clip at about real time here; the limit leaves room for a busy
// machine.
// Progress: transcription up to kPlannedPercent, the clips' renders up to kRenderedPercent.
constexpr int kPlannedPercent = 40;
constexpr int kRenderedPercent = 90;

// The first clip is the short's main file; the others are "clip-2", "clip-3", ...
std::string clip_role(size_t index) {
    return index == 0 ? "main" : "clip-" + std::to_string(index + 1);
}

media::Media source_media(TaskContext& context, const jobs::ClaimedJob& job,
                          const std::string& media_id) {
    const auto found = context.in_database([&](db::Session& s) {
        return media::MediaRepository::find(s, job.workspace_id, media_id);
    });
    if (!found || found->status != "ready" || (found->kind != "video" && found->kind != "audio"))
        throw PermanentError(
            "the media to cut is no longer a ready audio or video of the workspace",
            {{"field", "media_id"}});
    return *found;
}

void write_captions(TaskContext& context, const fs::path& path, const std::string& document) {
    context.executor().run([&] {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << document;
        out.close();
        if (!out) throw RetryableError("cannot write the captions to " + path.string());
    });
}

nlohmann::json words_json(const std::vector<generation::TranscribedWord>& words) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& w : words)
        out.push_back({{"word", w.word}, {"start", w.start_seconds}, {"end", w.end_seconds}});
    return out;
}

}  // namespace

nlohmann::json ShortTask::run(const jobs::ClaimedJob& job, TaskContext& context) {
    generation::ShortRequest request;
    try {
        request = generation::ShortRequest::from_json(job.payload);
    } catch (const std::invalid_argument& e) {
        throw PermanentError(e.what());
    }
    const auto& style = *generation::find_caption_style(request.caption_style);
    const auto& config = context.config();
    const auto source = source_media(context, job, request.media_id);
    const auto source_file = input_file(context, job, source, "media_id");
    const auto& source_path = source_file.path();

    JobProviderCalls calls(context);
    context.report_progress(5, "transcribing");
    generation::TranscriptionRequest asked;
    asked.idempotency_key = job.public_id;
    const auto heard = transcribe_file(config, source_path, asked, calls);
    const auto& words = heard.transcript.words;
    const double source_seconds =
        source.duration_seconds.value_or(heard.transcript.duration_seconds);

    context.report_progress(kPlannedPercent, "planning");
    const auto clips = generation::plan_clips(words, source_seconds,
                                              generation::fixed_clip_seconds(request.clip_length),
                                              request.max_clips);
    if (clips.empty()) throw PermanentError("the media is too short to cut a short from");

    // The captions, removed however the job ends.
    const auto work = [&] {
        try {
            return std::make_unique<squawk::fs::ScratchDirectory>("squawk-short-" + job.public_id +
                                                                  "-");
        } catch (const std::system_error& e) {
            throw RetryableError(e.what());
        }
    }();
    std::vector<std::unique_ptr<CreatedFile>> files;
    nlohmann::json planned = nlohmann::json::array();
    double total_seconds = 0;
    for (size_t i = 0; i < clips.size(); ++i) {
        const auto& clip = clips[i];
        auto& file =
            *files.emplace_back(std::make_unique<CreatedFile>(job, config, clip_role(i), "mp4"));
        if (i == 0) prepare_directory(context, file.directory);
        const auto spoken = generation::clip_words(words, clip);
        const auto captions = work->path() / ("clip-" + std::to_string(i + 1) + ".ass");
        write_captions(context, captions,
                       generation::ass_document(style, request.caption_format, spoken, kShortWidth,
                                                kShortHeight));
        context.report_progress(
            kPlannedPercent +
                static_cast<int>((kRenderedPercent - kPlannedPercent) * i / clips.size()),
            "rendering");
        ShortClipRender job_clip{
            source_path, source.kind == "video",        clip.start_seconds, clip.duration_seconds(),
            captions,    std::string(style.background), file.temp.path()};
        run_ffmpeg(context, short_clip_arguments(kFfmpeg, job_clip), clip.duration_seconds(), calls,
                   "render the short");

        const auto made = context.executor().run([&] {
            try {
                return media::inspect_media(file.temp.path().string(), config.media);
            } catch (const media::UnacceptableMedia& e) {
                throw PermanentError(std::string("ffmpeg wrote an unreadable short: ") + e.what());
            }
        });
        file.record.kind = "video";
        file.record.mime_type = "video/mp4";
        file.record.width = made.width.value_or(kShortWidth);
        file.record.height = made.height.value_or(kShortHeight);
        file.record.duration_seconds = made.duration_seconds.value_or(clip.duration_seconds());
        total_seconds += *file.record.duration_seconds;
        planned.push_back({{"role", clip_role(i)},
                           {"start_seconds", clip.start_seconds},
                           {"end_seconds", clip.end_seconds},
                           {"duration_seconds", *file.record.duration_seconds},
                           {"words", words_json(spoken)}});
    }
    context.report_progress(kRenderedPercent, "recording");

    const auto& main = *files.front();
    nlohmann::json output{{"width", *main.record.width},
                          {"height", *main.record.height},
                          {"duration_seconds", *main.record.duration_seconds},
                          {"caption_style", request.caption_style},
                          {"caption_format", request.caption_format},
                          {"clip_length", request.clip_length},
                          {"clips", std::move(planned)},
                          {"source_media_id", request.media_id},
                          {"language", heard.transcript.language},
                          {"transcript", heard.transcript.text},
                          {"transcription_provider", heard.provider},
                          {"provider", "ffmpeg"}};
    if (!request.genre.empty()) output["genre"] = request.genre;
    std::vector<CreatedFile*> recorded_files;
    for (auto& f : files) recorded_files.push_back(f.get());
    const auto recorded = record_creation(context, job, output, recorded_files,
                                          billing::whole_seconds(total_seconds));
    const auto& stored = recorded.media.front();
    nlohmann::json result{{"short_id", recorded.public_id},
                          {"media_id", stored.public_id},
                          {"mime_type", stored.mime_type},
                          {"width", *main.record.width},
                          {"height", *main.record.height},
                          {"duration_seconds", *main.record.duration_seconds},
                          {"clips", recorded.media.size()},
                          {"size_bytes", stored.size_bytes},
                          {"download_url", download_url(config, stored)}};
    if (recorded.media.size() > 1) {
        nlohmann::json ids = nlohmann::json::array();
        for (const auto& m : recorded.media) ids.push_back(m.public_id);
        result["media_ids"] = std::move(ids);
    }
    return result;
}

}  // namespace squawk::workers::generate
