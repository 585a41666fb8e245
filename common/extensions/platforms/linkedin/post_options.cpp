#include "common/extensions/platforms/linkedin/post_options.hpp"

#include <algorithm>

namespace squawk::social::linkedin {
namespace {

size_t code_points(std::string_view text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

}  // namespace

OptionProblems check_options(const nlohmann::json& options, std::string_view) {
    OptionProblems problems;
    for (const auto& [name, value] : options.items()) {
        if (name == "visibility") {
            if (value != "PUBLIC" && value != "CONNECTIONS")
                problems.push_back({name, "must be PUBLIC or CONNECTIONS"});
        } else if (name == "title") {
            if (!value.is_string() || value.get<std::string>().empty() ||
                code_points(value.get<std::string>()) > kMaxTitleChars)
                problems.push_back({name, "must be a text of 1 to " +
                                              std::to_string(kMaxTitleChars) + " characters"});
        } else {
            problems.push_back({name, "is not an option of LinkedIn posts (visibility, title)"});
        }
    }
    return problems;
}

std::string visibility_of(const nlohmann::json& options) {
    return options.is_object() && options.value("visibility", "") == "CONNECTIONS" ? "CONNECTIONS"
                                                                                   : "PUBLIC";
}

std::string title_of(const nlohmann::json& options, const std::string& fallback) {
    if (options.is_object() && options.contains("title") && options["title"].is_string())
        return options["title"].get<std::string>();
    return fallback;
}

}  // namespace squawk::social::linkedin
