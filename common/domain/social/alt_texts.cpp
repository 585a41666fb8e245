#include "common/domain/social/alt_texts.hpp"

#include "common/domain/social/post_validation.hpp"

namespace squawk::social {

void check_alt_texts(const nlohmann::json& value, const std::string& field, size_t max_items,
                     size_t max_chars, OptionProblems& problems) {
    if (!value.is_array() || value.size() > max_items) {
        problems.push_back({field, "must be an array of at most " + std::to_string(max_items) +
                                       " texts, one per image in the order of media_urls"});
        return;
    }
    for (size_t i = 0; i < value.size(); ++i)
        if (!value[i].is_string() || utf8_length(value[i].get<std::string>()) > max_chars)
            problems.push_back(
                {field + "[" + std::to_string(i) + "]",
                 "must be a text of at most " + std::to_string(max_chars) + " characters"});
}

std::string alt_text_of(const nlohmann::json& holder, size_t index) {
    if (!holder.is_object() || !holder.contains("alt_texts")) return "";
    const auto& texts = holder["alt_texts"];
    if (!texts.is_array() || index >= texts.size() || !texts[index].is_string()) return "";
    return texts[index].get<std::string>();
}

}  // namespace squawk::social
