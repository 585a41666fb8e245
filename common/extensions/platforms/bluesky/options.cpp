#include "common/extensions/platforms/bluesky/options.hpp"

#include "common/domain/social/alt_texts.hpp"
#include "common/extensions/platforms/bluesky/factory.hpp"

namespace squawk::social::bluesky {

OptionProblems check_options(const nlohmann::json& options, std::string_view) {
    OptionProblems problems;
    for (const auto& [name, value] : options.items()) {
        if (name == "alt_texts")
            check_alt_texts(value, name, kFactory.limits.max_images, kMaxAltTextChars, problems);
        else
            problems.push_back({name, "is not an option of Bluesky posts (alt_texts)"});
    }
    return problems;
}

}  // namespace squawk::social::bluesky
