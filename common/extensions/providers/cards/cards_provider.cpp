#include "common/extensions/providers/cards/cards_provider.hpp"

#include "common/core/config/config.hpp"
#include "common/domain/generation/provider_error.hpp"
#include "common/extensions/providers/cards/card_check.hpp"
#include "common/extensions/providers/cards/card_files.hpp"
#include "common/extensions/providers/cards/card_render.hpp"
#include "common/extensions/providers/cards/card_templates.hpp"

#include <system_error>

namespace squawk::providers::cards {

std::vector<std::string> CardsProvider::templates() const {
    const auto names = template_names();
    return {names.begin(), names.end()};
}

std::vector<std::string> CardsProvider::models() const {
    return {};
}

std::vector<generation::FieldProblem> CardsProvider::check(
    const generation::ImageRequest& request) const {
    return check_card(request, settings_);
}

generation::GeneratedImage CardsProvider::generate(const generation::ImageRequest& request,
                                                   const std::filesystem::path& output,
                                                   generation::ProviderCalls& calls) const {
    // The API checked the request when it took the job; this catches one that changed shape
    // since (another release, an edited row) before it reaches the drawing code.
    const auto problems = check(request);
    if (!problems.empty())
        throw generation::ProviderError::permanent(
            problems.front().field + ": " + problems.front().message,
            {{"field", problems.front().field}});
    const CardTemplate card = *template_named(request.template_name);

    const std::atomic<bool>& stop = calls.stop();
    if (stop) throw generation::ProviderStopped();
    calls.blocking([&] {
        const SurfacePtr surface = render_card(request, card, settings_.font);
        if (stop) return;
        write_card(surface.get(), request.format, output, settings_.jpeg_quality);
    });
    if (stop) {
        std::error_code ignored;
        std::filesystem::remove(output, ignored);
        throw generation::ProviderStopped();
    }
    return {request.size.width, request.size.height,
            request.format == generation::ImageFormat::jpeg ? "image/jpeg" : "image/png",
            std::string(name_of(card))};
}

std::unique_ptr<generation::ImageProvider> make_image_provider(const config::Config& config) {
    return std::make_unique<CardsProvider>(config.providers.cards);
}

}  // namespace squawk::providers::cards
