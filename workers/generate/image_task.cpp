#include "workers/generate/image_task.hpp"

#include "common/domain/generation/image_provider_choice.hpp"
#include "common/domain/generation/image_request_json.hpp"
#include "workers/generate/created_files.hpp"
#include "workers/generate/job_provider_calls.hpp"
#include "workers/generate/provider_call.hpp"

#include <stdexcept>

namespace squawk::workers::generate {

nlohmann::json ImageTask::run(const jobs::ClaimedJob& job, TaskContext& context) {
    generation::ImageRequest request;
    try {
        request = generation::image_request_from_json(job.payload);
    } catch (const std::invalid_argument& e) {
        throw PermanentError(e.what());
    }
    request.idempotency_key = job.public_id;
    const auto& config = context.config();
    const auto choice = generation::choose_image_provider(providers::registered(), config, request);
    if (!choice.provider)
        throw PermanentError("no image provider can make this request any more",
                             {{"code", "MODEL_NOT_AVAILABLE"}, {"setting", "generation.image"}});
    const auto problems = choice.provider->check(request);
    if (!problems.empty())
        throw PermanentError(problems.front().message, {{"field", problems.front().field}});

    CreatedFile file(job, config, "main", name_of(request.format));
    prepare_directory(context, file.directory);
    const auto image = [&] {
        JobProviderCalls calls(context);
        return call_provider(
            [&] { return choice.provider->generate(request, file.temp.path(), calls); });
    }();

    file.record.kind = "image";
    file.record.mime_type = image.mime_type;
    file.record.width = image.width;
    file.record.height = image.height;
    const nlohmann::json output{
        {"width", image.width},
        {"height", image.height},
        {"format", request.format},
        {"template", request.template_name.empty() ? nlohmann::json(nullptr)
                                                   : nlohmann::json(request.template_name)},
        {"provider", choice.name},
        {"model", image.model}};
    const auto recorded = record_creation(context, job, output, {&file}, 1);
    const auto& stored = recorded.media.front();
    return {{"image_id", recorded.public_id},
            {"media_id", stored.public_id},
            {"mime_type", stored.mime_type},
            {"width", image.width},
            {"height", image.height},
            {"size_bytes", stored.size_bytes},
            {"download_url", download_url(config, stored)}};
}

}  // namespace squawk::workers::generate
