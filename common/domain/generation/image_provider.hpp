// The image seam: a card rendered from a template and its fields (the local renderer), or a
// picture from a prompt (an image service). The sizes and formats are the API's promise,
// whatever the provider.
#pragma once

#include "common/core/names/wire_names.hpp"
#include "common/domain/generation/modality.hpp"
#include "common/domain/generation/provider_calls.hpp"

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::generation {

enum class ImageFormat { png, jpeg };

inline std::span<const char* const> wire_names(ImageFormat) {
    static constexpr const char* names[] = {"png", "jpeg"};
    return names;
}

struct ImageSize {
    int width = 0;
    int height = 0;
};

// Feed, portrait, story, link card and landscape: the shapes the platforms show.
inline constexpr ImageSize kImageSizes[] = {
    {1080, 1080}, {1080, 1350}, {1080, 1920}, {1200, 628}, {1600, 900}};
inline constexpr std::string_view kImageSizeNames[] = {"1080x1080", "1080x1350", "1080x1920",
                                                       "1200x628", "1600x900"};

struct ImageRequest {
    // A card template (templates()), or empty when `prompt` describes the picture.
    std::string template_name;
    std::string prompt;
    std::string model;  // prompt providers: one of models(); empty for the default
    ImageSize size{1080, 1080};
    ImageFormat format = ImageFormat::png;

    // Template fields; which are required depends on the template (check()).
    std::string title;
    std::string subtitle;
    std::string text;
    std::string author;
    std::vector<std::string> items;
    std::string value;
    std::string label;

    // Colours as "#rrggbb". One background colour is flat, two or three are a gradient; empty
    // members take the template's own.
    std::vector<std::string> background;
    std::string text_color;
    std::string accent_color;

    // Stable across retries of one job, for services that deduplicate on it.
    std::string idempotency_key;
};

// One thing wrong with a request, named by its API field.
struct FieldProblem {
    std::string field;
    std::string message;
};

struct GeneratedImage {
    int width = 0;
    int height = 0;
    std::string mime_type;  // image/png or image/jpeg
    std::string model;      // the template's name for cards
};

class ImageProvider {
  public:
    static constexpr Modality kModality = Modality::image;

    virtual ~ImageProvider() = default;

    // The card templates it renders; empty for a prompt-only provider.
    virtual std::vector<std::string> templates() const = 0;
    // The models it allows for prompts, the default first; empty when it takes no prompts.
    virtual std::vector<std::string> models() const = 0;
    // What is wrong with `request` for this provider (missing or oversized template fields, bad
    // colours), checked by the API before the job is accepted; empty when it can be generated.
    virtual std::vector<FieldProblem> check(const ImageRequest& request) const = 0;

    // Writes the image at `output` in request.format and request.size. Throws ProviderError or
    // ProviderStopped.
    virtual GeneratedImage generate(const ImageRequest& request,
                                    const std::filesystem::path& output,
                                    ProviderCalls& calls) const = 0;
};

}  // namespace squawk::generation
