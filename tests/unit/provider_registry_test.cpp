// Generation providers are found by modality and name: a task gets the one [generation] chose,
// an unknown name is an error naming what is registered, and configuration refuses such names.
#include "common/domain/generation/provider_registry.hpp"
#include "common/core/config/config.hpp"
#include "common/domain/generation/speech_provider.hpp"
#include "common/domain/generation/text_provider.hpp"
#include "common/extensions/providers/registered.hpp"

#include <catch2/catch.hpp>

#include <array>

using namespace squawk;
using Catch::Matchers::Contains;

namespace {

const std::map<std::string, std::string> kNoEnvironment;

class FakeSpeech final : public generation::SpeechProvider {
  public:
    std::span<const std::string_view> voices() const override { return kVoices; }
    generation::SynthesizedSpeech synthesize(const generation::SpeechRequest&,
                                             const std::filesystem::path&,
                                             generation::ProviderCalls&) const override {
        return {1.5};
    }

  private:
    static constexpr std::array<std::string_view, 1> kVoices{"robot"};
};

generation::ProviderRegistry registry_with_fake() {
    generation::ProviderRegistry registry;
    registry.add<generation::SpeechProvider>(
        "fake", [](const config::Config&) { return std::make_unique<FakeSpeech>(); });
    return registry;
}

}  // namespace

TEST_CASE("a provider is created by its modality and name", "[unit][providers]") {
    const auto registry = registry_with_fake();
    const auto provider = registry.create<generation::SpeechProvider>("fake", config::Config{});
    REQUIRE(provider);
    CHECK(provider->voices().front() == "robot");
    CHECK(registry.has(generation::Modality::speech, "fake"));
    CHECK_FALSE(registry.has(generation::Modality::text, "fake"));
    CHECK(registry.names(generation::Modality::speech) == std::vector<std::string>{"fake"});
    CHECK(registry.names(generation::Modality::video).empty());
}

TEST_CASE("an unknown provider name is an error naming the modality and the name",
          "[unit][providers]") {
    const auto registry = registry_with_fake();
    CHECK_THROWS_WITH(registry.create<generation::SpeechProvider>("espeak", config::Config{}),
                      Contains("speech") && Contains("'espeak'"));
    CHECK_THROWS_AS(registry.create<generation::SpeechProvider>("", config::Config{}),
                    generation::UnknownProvider);
}

TEST_CASE("a name registered twice for one modality is refused", "[unit][providers]") {
    auto registry = registry_with_fake();
    CHECK_THROWS_AS(
        registry.add<generation::SpeechProvider>(
            "fake", [](const config::Config&) { return std::make_unique<FakeSpeech>(); }),
        std::logic_error);
}

TEST_CASE("the default provider of a modality is the one [generation] names", "[unit][providers]") {
    const auto registry = registry_with_fake();
    config::Config config;
    config.generation.default_provider["speech"] = "fake";
    CHECK(registry.create_default<generation::SpeechProvider>(config)->voices().front() == "robot");
    config.generation.default_provider.erase("speech");
    CHECK_THROWS_AS(registry.create_default<generation::SpeechProvider>(config),
                    generation::UnknownProvider);
}

TEST_CASE("espeak is registered and is the default speech provider", "[unit][providers]") {
    const auto& registered = providers::registered();
    CHECK(registered.has(generation::Modality::speech, "espeak"));
    const auto config = config::parse("", kNoEnvironment);
    CHECK(config.generation.default_provider.at("speech") == "espeak");
    const auto speech = registered.create_default<generation::SpeechProvider>(config);
    const auto voices = speech->voices();
    CHECK(std::find(voices.begin(), voices.end(), generation::kDefaultVoice) != voices.end());
}

TEST_CASE("every default in [generation] names a registered provider", "[unit][providers]") {
    for (const auto modality : all_values<generation::Modality>()) {
        const auto& defaults = config::GenerationSettings{}.default_provider;
        const auto chosen = defaults.find(std::string(name_of(modality)));
        if (chosen != defaults.end()) CHECK(providers::registered().has(modality, chosen->second));
    }
}

TEST_CASE("an empty provider name leaves a modality without a provider", "[unit][providers]") {
    const auto config = config::parse("[generation]\ntext = \"\"\nimage = \"\"\n", kNoEnvironment);
    CHECK_FALSE(config.generation.default_provider.contains("text"));
    CHECK_FALSE(config.generation.default_provider.contains("image"));
    CHECK(config.generation.default_provider.at("speech") == "espeak");
    CHECK_THROWS_AS(providers::registered().create_default<generation::TextProvider>(config),
                    generation::UnknownProvider);
}

TEST_CASE("configuration refuses a provider name no provider of that modality has",
          "[unit][providers]") {
    CHECK(config::parse("[generation]\nspeech = \"espeak\"\n", kNoEnvironment)
              .generation.default_provider.at("speech") == "espeak");
    CHECK_THROWS_WITH(
        config::parse("[generation]\nspeech = \"polly\"\n", kNoEnvironment),
        Contains("generation.speech") && Contains("'polly'") && Contains("registered: espeak"));
    CHECK_THROWS_WITH(config::parse("", {{"SQUAWK_GENERATION_SPEECH", "polly"}}),
                      Contains("SQUAWK_GENERATION_SPEECH"));
    CHECK_THROWS_WITH(config::parse("[generation]\nvideo = \"espeak\"\n", kNoEnvironment),
                      Contains("generation.video") && Contains("registered: none"));
    CHECK_THROWS_WITH(config::parse("[generation]\nsmell = \"espeak\"\n", kNoEnvironment),
                      Contains("unknown config key 'generation.smell'"));
}

TEST_CASE("espeak's settings are its own [providers.espeak] section", "[unit][providers]") {
    const auto c = config::parse("[providers.espeak]\nbinary = \"/opt/espeak-ng\"\n",
                                 {{"SQUAWK_PROVIDERS_ESPEAK_TIMEOUT_SECONDS", "5"}});
    CHECK(c.providers.espeak.binary == "/opt/espeak-ng");
    CHECK(c.providers.espeak.timeout_seconds == 5);
    CHECK_THROWS_WITH(config::parse("[providers.espeak]\ntimeout_seconds = 0\n", kNoEnvironment),
                      Contains("providers.espeak.timeout_seconds"));
    CHECK_THROWS_WITH(config::parse("[speech]\nespeak_binary = \"espeak-ng\"\n", kNoEnvironment),
                      Contains("unknown config key 'speech.espeak_binary'"));
}
