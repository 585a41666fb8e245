#include "common/domain/generation/presentation_outline.hpp"

#include <nlohmann/json.hpp>

namespace squawk::generation {
namespace {

using nlohmann::json;

constexpr std::string_view kBlank = " \t\r\n";

std::string_view trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(kBlank);
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(kBlank) - first + 1);
}

// Models often wrap JSON in a Markdown code fence despite being asked not to.
std::string_view without_fence(std::string_view answer) {
    answer = trimmed(answer);
    if (!answer.starts_with("```") || answer.size() < 6 || !answer.ends_with("```")) return answer;
    answer.remove_suffix(3);
    const auto line_end = answer.find('\n');
    if (line_end == std::string_view::npos) return {};
    return trimmed(answer.substr(line_end + 1));
}

std::string text_of(const json& object, const char* key, size_t max_chars, const std::string& at) {
    const auto found = object.find(key);
    if (found == object.end() || !found->is_string())
        throw MalformedOutline(at + key + " is not text");
    const std::string text(trimmed(found->get_ref<const std::string&>()));
    if (text.empty()) throw MalformedOutline(at + key + " is empty");
    if (text.size() > max_chars)
        throw MalformedOutline(at + key + " is longer than " + std::to_string(max_chars) +
                               " characters");
    return text;
}

SlideRequest slide_of(const json& slide, const std::string& at) {
    if (!slide.is_object()) throw MalformedOutline(at + " is not an object");
    SlideRequest s;
    s.title = text_of(slide, "title", kMaxSlideTitleChars, at + ".");
    const auto bullets = slide.find("bullets");
    if (bullets == slide.end() || !bullets->is_array() || bullets->size() < kMinOutlineBullets ||
        bullets->size() > kMaxOutlineBullets)
        throw MalformedOutline(at + ".bullets is not a list of 3 to 5 texts");
    for (size_t i = 0; i < bullets->size(); ++i) {
        const std::string name = "bullets[" + std::to_string(i) + "]";
        s.bullets.push_back(
            text_of(json{{name, (*bullets)[i]}}, name.c_str(), kMaxBulletChars, at + "."));
    }
    return s;
}

}  // namespace

std::vector<ChatMessage> outline_messages(const std::string& topic, const std::string& title,
                                          size_t slide_count) {
    const std::string count = std::to_string(slide_count);
    std::string system =
        "You outline slide decks. Answer with one JSON object and nothing else, no Markdown: "
        "{\"title\": \"<deck title>\", \"slides\": [{\"title\": \"<slide title>\", \"bullets\": "
        "[\"<bullet>\", ...]}, ...]}. Give exactly " +
        count +
        " slides, each with 3 to 5 short bullets of at most 20 words. Do not invent "
        "statistics, quotes or sources.";
    std::string user = "Outline a presentation of " + count + " slides about: " + topic;
    if (!title.empty()) user += "\n\nIts title is: " + title;
    return {{"system", std::move(system)}, {"user", std::move(user)}};
}

PresentationOutline parse_outline(std::string_view answer, size_t slide_count) {
    const json body = json::parse(without_fence(answer), nullptr, false);
    if (!body.is_object()) throw MalformedOutline("the outline is not a JSON object");
    PresentationOutline outline;
    outline.title = text_of(body, "title", kMaxPresentationTitleChars, "");
    const auto slides = body.find("slides");
    if (slides == body.end() || !slides->is_array()) throw MalformedOutline("slides is not a list");
    if (slides->size() != slide_count)
        throw MalformedOutline("the outline has " + std::to_string(slides->size()) +
                               " slides instead of " + std::to_string(slide_count));
    for (size_t i = 0; i < slides->size(); ++i)
        outline.slides.push_back(slide_of((*slides)[i], "slides[" + std::to_string(i) + "]"));
    return outline;
}

}  // namespace squawk::generation
