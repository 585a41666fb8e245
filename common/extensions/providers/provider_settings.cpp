#include "common/extensions/providers/provider_settings.hpp"

#include "common/core/config/section_schema.hpp"
#include "common/domain/generation/generation_settings.hpp"
#include "common/domain/generation/modality.hpp"
#include "common/extensions/providers/registered.hpp"

namespace squawk::config {
namespace {

// generation.<modality>: one of the providers of that modality compiled into this build, or ""
// for none.
Row<GenerationSettings> default_provider(generation::Modality modality) {
    const std::string name(name_of(modality));
    return {name,
            [name, modality](GenerationSettings& g, const Scalar& value, const std::string& path) {
                const std::string chosen = as_text(value, path);
                if (chosen.empty()) {
                    g.default_provider.erase(name);
                    return;
                }
                const auto& registry = providers::registered();
                if (!registry.has(modality, chosen)) {
                    std::string listed;
                    for (const auto& known : registry.names(modality))
                        listed += (listed.empty() ? "" : ", ") + known;
                    bad_value(path, "unknown " + name + " provider '" + chosen + "' (registered: " +
                                        (listed.empty() ? "none" : listed) + ")");
                }
                g.default_provider[name] = chosen;
            }};
}

}  // namespace

SectionSchema<GenerationSettings> generation_schema() {
    SectionSchema<GenerationSettings> schema;
    for (const auto modality : all_values<generation::Modality>())
        schema.rows.push_back(default_provider(modality));
    return schema;
}

SectionSchema<ProviderSettings> providers_schema() {
    SectionSchema<ProviderSettings> schema;
    nest(
        schema, "espeak", [](ProviderSettings& p) -> EspeakSettings& { return p.espeak; },
        espeak_schema());
    nest(
        schema, "cards", [](ProviderSettings& p) -> CardsSettings& { return p.cards; },
        cards_schema());
    nest(
        schema, "openai", [](ProviderSettings& p) -> OpenAiSettings& { return p.openai; },
        openai_schema());
    nest(
        schema, "pocketsphinx",
        [](ProviderSettings& p) -> PocketsphinxSettings& { return p.pocketsphinx; },
        pocketsphinx_schema());
    return schema;
}

}  // namespace squawk::config
