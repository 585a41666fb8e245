#include "workers/generate/presentation_task.hpp"

#include "common/core/config/config.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/domain/generation/presentation_outline.hpp"
#include "common/domain/generation/presentation_request.hpp"
#include "common/domain/media/media_repository.hpp"
#include "common/extensions/presentation/pptx_package.hpp"
#include "common/extensions/presentation/slide_files.hpp"
#include "common/extensions/presentation/slide_image.hpp"
#include "common/extensions/presentation/zip_writer.hpp"
#include "workers/errors.hpp"
#include "workers/generate/created_files.hpp"
#include "workers/generate/input_media.hpp"
#include "workers/generate/job_provider_calls.hpp"
#include "workers/generate/provider_call.hpp"

#include <memory>
#include <stdexcept>

namespace squawk::workers::generate {
namespace {

namespace fs = std::filesystem;
using presentation::Deck;
using presentation::SlideImage;

// The picture a slide names, as the API accepted it: still the workspace's, ready, PNG or JPEG.
SlideImage load_image(TaskContext& context, const jobs::ClaimedJob& job, const std::string& field,
                      const std::string& media_id) {
    const auto m = context.in_database([&](db::Session& s) {
        return media::MediaRepository::find(s, job.workspace_id, media_id);
    });
    if (!m || m->status != "ready" || m->kind != "image")
        throw PermanentError("the slide's picture no longer exists", {{"field", field}});
    if (m->mime_type != "image/png" && m->mime_type != "image/jpeg")
        throw PermanentError("the slide's picture is not a PNG or JPEG", {{"field", field}});
    SlideImage image;
    image.extension = m->mime_type == "image/png" ? "png" : "jpeg";
    const auto file = input_file(context, job, *m, field);
    context.executor().run([&] {
        auto bytes = squawk::fs::read_file(file.path());
        if (!bytes) throw RetryableError("cannot read " + file.path().string());
        image.bytes = std::move(*bytes);
        try {
            const auto decoded = presentation::decode_image(image.bytes, image.extension);
            image.width = cairo_image_surface_get_width(decoded.get());
            image.height = cairo_image_surface_get_height(decoded.get());
        } catch (const std::invalid_argument& e) {
            throw PermanentError(e.what(), {{"field", field}});
        }
    });
    return image;
}

Deck deck_for(TaskContext& context, const jobs::ClaimedJob& job,
              const generation::PresentationRequest& request) {
    Deck deck;
    deck.title = request.title;
    deck.colors = presentation::colors_for(request.theme, request.accent_color);
    deck.font = context.config().providers.cards.font;
    for (size_t i = 0; i < request.slides.size(); ++i) {
        const auto& asked = request.slides[i];
        presentation::DeckSlide slide{asked.title, asked.bullets, std::nullopt};
        if (!asked.image_media_id.empty())
            slide.image =
                load_image(context, job, "slides[" + std::to_string(i) + "].image_media_id",
                           asked.image_media_id);
        deck.slides.push_back(std::move(slide));
    }
    return deck;
}

// Room for a slide's title and five bullets of about 20 words; a token is under a word.
constexpr int kOutlineTokensPerSlide = 200;

// Fills `request` from the text provider's outline of its topic. A malformed answer is retried
// once, as other malformed provider answers are, then fails the job: asking the same model the
// same thing again rarely helps.
void outline(TaskContext& context, const jobs::ClaimedJob& job,
             generation::PresentationRequest& request) {
    const auto provider = configured<generation::TextProvider>(context.config());
    generation::TextRequest asked;
    asked.messages =
        generation::outline_messages(request.topic, request.title, request.slide_count);
    asked.max_tokens = static_cast<int>(request.slide_count) * kOutlineTokensPerSlide;
    asked.temperature = 0.4;
    asked.idempotency_key = job.public_id;
    context.report_progress(2, "writing");
    const auto completion = [&] {
        JobProviderCalls calls(context);
        return call_provider([&] { return provider.instance->complete(asked, calls); });
    }();
    try {
        auto answer = generation::parse_outline(completion.text, request.slide_count);
        if (request.title.empty()) request.title = std::move(answer.title);
        request.slides = std::move(answer.slides);
    } catch (const generation::MalformedOutline& e) {
        const std::string reason =
            std::string("malformed answer from the provider: the outline is unusable: ") + e.what();
        if (job.attempts < 2) throw RetryableError(reason);
        throw PermanentError(reason, {{"code", "PROVIDER_ERROR"}, {"retryable", false}});
    }
}

// Runs a writer on the executor; a file it cannot write may be writable on the next run.
template <class Write>
void write_on_executor(TaskContext& context, Write&& write) {
    context.executor().run([&] {
        try {
            write();
        } catch (const std::invalid_argument& e) {
            throw PermanentError(e.what());
        } catch (const std::runtime_error& e) {
            throw RetryableError(e.what());
        }
    });
}

}  // namespace

nlohmann::json PresentationTask::run(const jobs::ClaimedJob& job, TaskContext& context) {
    generation::PresentationRequest request;
    try {
        request = generation::PresentationRequest::from_json(job.payload);
    } catch (const std::invalid_argument& e) {
        throw PermanentError(e.what());
    }
    if (!request.topic.empty()) outline(context, job, request);
    const auto& config = context.config();
    const Deck deck = deck_for(context, job, request);
    context.report_progress(5, "writing_pptx");

    CreatedFile pptx(job, config, "main", "pptx");
    prepare_directory(context, pptx.directory);
    write_on_executor(context, [&] {
        presentation::write_zip(presentation::pptx_parts(deck), pptx.temp.path());
    });
    pptx.record.kind = "document";
    pptx.record.mime_type = presentation::kPptxMimeType;
    context.report_progress(20, "drawing_pdf");
    context.stop_if_cancelled();

    CreatedFile pdf(job, config, "pdf", "pdf");
    write_on_executor(context, [&] { presentation::write_pdf(deck, pdf.temp.path()); });
    pdf.record.kind = "document";
    pdf.record.mime_type = "application/pdf";
    context.report_progress(50, "drawing_thumbnails");

    std::vector<std::unique_ptr<CreatedFile>> thumbnails;
    nlohmann::json thumbnail_roles = nlohmann::json::array();
    for (size_t page = 0; page < deck.page_count(); ++page) {
        context.stop_if_cancelled();
        const std::string role = "thumbnail-" + std::to_string(page + 1);
        auto& file =
            *thumbnails.emplace_back(std::make_unique<CreatedFile>(job, config, role, "png"));
        write_on_executor(context,
                          [&] { presentation::write_thumbnail(deck, page, file.temp.path()); });
        file.record.kind = "image";
        file.record.mime_type = "image/png";
        file.record.width = presentation::kThumbnailWidth;
        file.record.height = presentation::kThumbnailHeight;
        thumbnail_roles.push_back(role);
        context.report_progress(50 + static_cast<int>(45 * (page + 1) / deck.page_count()),
                                "drawing_thumbnails");
    }

    nlohmann::json output{
        {"title", deck.title},
        {"theme", request.theme},
        {"slide_count", deck.page_count()},
        {"roles", {{"pptx", "main"}, {"pdf", "pdf"}, {"thumbnails", thumbnail_roles}}}};
    if (!request.topic.empty()) output["topic"] = request.topic;
    std::vector<CreatedFile*> files{&pptx, &pdf};
    for (const auto& t : thumbnails) files.push_back(t.get());
    const auto recorded =
        record_creation(context, job, output, files, static_cast<long long>(deck.slides.size()));

    nlohmann::json media_ids = nlohmann::json::array();
    for (const auto& m : recorded.media) media_ids.push_back(m.public_id);
    const auto& deck_file = recorded.media.front();
    return {{"presentation_id", recorded.public_id},
            {"media_id", deck_file.public_id},
            {"media_ids", std::move(media_ids)},
            {"slide_count", deck.page_count()},
            {"download_url", download_url(config, deck_file)}};
}

}  // namespace squawk::workers::generate
