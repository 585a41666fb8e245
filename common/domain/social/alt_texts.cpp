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

void check_alt_texts_cover(const nlohmann::json& holder, size_t images, const std::string& prefix,
                           OptionProblems& problems) {
    if (!holder.is_object()) return;
    const auto texts = holder.find("alt_texts");
    if (texts == holder.end() || !texts->is_array() || texts->size() <= images) return;
    const auto counted = [](size_t n, const std::string& noun) {
        return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
    };
    problems.push_back({prefix + "alt_texts", "has " + counted(texts->size(), "description") +
                                                  " for " + counted(images, "image")});
}

std::string alt_text_of(const nlohmann::json& holder, size_t index) {
    if (!holder.is_object() || !holder.contains("alt_texts")) return "";
    const auto& texts = holder["alt_texts"];
    if (!texts.is_array() || index >= texts.size() || !texts[index].is_string()) return "";
    return texts[index].get<std::string>();
}

}  // namespace squawk::social
