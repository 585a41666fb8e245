#include "common/extensions/providers/openai/openai_image_provider.hpp"

#include "common/domain/generation/provider_error.hpp"
#include "common/extensions/providers/openai/image_info.hpp"
#include "common/extensions/providers/openai/openai_answers.hpp"
#include "common/extensions/providers/openai/openai_service.hpp"

#include <algorithm>
#include <fstream>

namespace squawk::providers::openai {
namespace {

using generation::ImageFormat;
using generation::ProviderError;

bool offered_size(generation::ImageSize size) {
    return std::any_of(std::begin(generation::kImageSizes), std::end(generation::kImageSizes),
                       [&](const auto& offered) {
                           return offered.width == size.width && offered.height == size.height;
                       });
}

std::string size_text(int width, int height) {
    return std::to_string(width) + "x" + std::to_string(height);
}

void write_file(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) throw ProviderError::retryable("could not write the image to " + path.string());
}

}  // namespace

std::vector<std::string> OpenAiImageProvider::templates() const {
    return {};
}

std::vector<std::string> OpenAiImageProvider::models() const {
    return settings_.image_models;
}

std::vector<generation::FieldProblem> OpenAiImageProvider::check(
    const generation::ImageRequest& request) const {
    std::vector<generation::FieldProblem> problems;
    if (!request.template_name.empty())
        problems.push_back({"template", "this provider draws from a prompt and has no templates"});
    if (request.prompt.find_first_not_of(" \t\r\n") == std::string::npos)
        problems.push_back({"prompt", "is required"});
    if (!offered_size(request.size)) problems.push_back({"size", "is not an offered size"});
    if (!request.model.empty() &&
        std::find(settings_.image_models.begin(), settings_.image_models.end(), request.model) ==
            settings_.image_models.end())
        problems.push_back({"model", "is not offered"});
    return problems;
}

generation::GeneratedImage OpenAiImageProvider::generate(const generation::ImageRequest& request,
                                                         const std::filesystem::path& output,
                                                         generation::ProviderCalls& calls) const {
    if (const auto problems = check(request); !problems.empty())
        throw ProviderError::permanent(problems.front().field + " " + problems.front().message,
                                       {{"field", problems.front().field}});
    const std::string model = chosen_model(settings_.image_models, request.model);
    const bool jpeg = request.format == ImageFormat::jpeg;
    const nlohmann::json body{{"model", model},
                              {"prompt", request.prompt},
                              {"n", 1},
                              {"size", size_text(request.size.width, request.size.height)},
                              {"response_format", "b64_json"},
                              {"output_format", jpeg ? "jpeg" : "png"}};
    const std::string bytes = parse_image(
        call_service(settings_,
                     {"/images/generations", "application/json",
                      body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                      request.idempotency_key},
                     calls));
    const auto info = image_info(bytes);
    if (!info) throw ProviderError::retryable("the provider's image is neither PNG nor JPEG");
    // A service that ignores the format or size asked will do so again: retrying cannot help.
    if (info->format != request.format)
        throw ProviderError::permanent(std::string("the provider returned a ") +
                                       (jpeg ? "PNG" : "JPEG") + " image when " +
                                       (jpeg ? "JPEG" : "PNG") + " was asked");
    if (info->width != request.size.width || info->height != request.size.height)
        throw ProviderError::permanent(
            "the provider returned a " + size_text(info->width, info->height) + " image when " +
            size_text(request.size.width, request.size.height) + " was asked");
    calls.blocking([&] { write_file(output, bytes); });
    return {info->width, info->height, jpeg ? "image/jpeg" : "image/png", model};
}

}  // namespace squawk::providers::openai
