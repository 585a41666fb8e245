// The registry's factory, apart from the provider so that only it depends on the whole
// configuration.
#include "common/core/config/config.hpp"
#include "common/extensions/providers/pocketsphinx/pocketsphinx_provider.hpp"

namespace squawk::providers::pocketsphinx {

std::unique_ptr<generation::TranscriptionProvider> make_transcription_provider(
    const config::Config& config) {
    return std::make_unique<PocketsphinxProvider>(config.providers.pocketsphinx);
}

}  // namespace squawk::providers::pocketsphinx
