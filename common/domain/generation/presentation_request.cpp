#include "common/domain/generation/presentation_request.hpp"

#include "common/domain/generation/payload_members.hpp"

#include <cctype>
#include <stdexcept>

namespace squawk::generation {
namespace {

SlideRequest slide_from_json(const nlohmann::json& slide) {
    if (!slide.is_object()) throw std::invalid_argument("each slide must be an object");
    SlideRequest s;
    s.title = required_string_member(slide, "title");
    s.image_media_id = string_member(slide, "image_media_id");
    if (const auto bullets = slide.find("bullets"); bullets != slide.end() && !bullets->is_null()) {
        if (!bullets->is_array() || bullets->size() > kMaxBullets)
            throw std::invalid_argument("bullets must be an array of at most 10 strings");
        for (const auto& bullet : *bullets) {
            if (!bullet.is_string()) throw std::invalid_argument("bullets must be strings");
            s.bullets.push_back(bullet.get<std::string>());
        }
    }
    return s;
}

}  // namespace

nlohmann::json PresentationRequest::to_json() const {
    nlohmann::json out{{"theme", theme}};
    if (!title.empty()) out["title"] = title;
    if (!topic.empty()) {
        out["topic"] = topic;
        out["slide_count"] = slide_count;
    } else {
        nlohmann::json listed = nlohmann::json::array();
        for (const auto& s : slides) {
            nlohmann::json slide{{"title", s.title}, {"bullets", s.bullets}};
            if (!s.image_media_id.empty()) slide["image_media_id"] = s.image_media_id;
            listed.push_back(std::move(slide));
        }
        out["slides"] = std::move(listed);
    }
    if (!accent_color.empty()) out["accent_color"] = accent_color;
    return out;
}

PresentationRequest PresentationRequest::from_json(const nlohmann::json& payload) {
    if (!payload.is_object()) throw std::invalid_argument("the payload must be an object");
    PresentationRequest r;
    r.topic = string_member(payload, "topic");
    r.title = r.topic.empty() ? required_string_member(payload, "title")
                              : string_member(payload, "title");
    if (!r.topic.empty()) {
        if (payload.contains("slides"))
            throw std::invalid_argument("slides and topic cannot both be given");
        const auto count = payload.find("slide_count");
        if (count == payload.end() || !count->is_number_unsigned() ||
            count->get<size_t>() < kMinOutlineSlides || count->get<size_t>() > kMaxOutlineSlides)
            throw std::invalid_argument("slide_count must be 1 to 30");
        r.slide_count = count->get<size_t>();
    } else {
        const auto slides = payload.find("slides");
        if (slides == payload.end() || !slides->is_array() || slides->empty() ||
            slides->size() > kMaxSlides)
            throw std::invalid_argument("slides must be an array of 1 to 50 slides");
        for (const auto& slide : *slides) r.slides.push_back(slide_from_json(slide));
    }
    const auto theme = parse_name<PresentationTheme>(string_member(payload, "theme"));
    if (payload.contains("theme") && !theme)
        throw std::invalid_argument("theme is not light, dark or brand");
    r.theme = theme.value_or(PresentationTheme::light);
    r.accent_color = string_member(payload, "accent_color");
    if (!r.accent_color.empty() && !is_hex_color(r.accent_color))
        throw std::invalid_argument("accent_color is not #rrggbb");
    return r;
}

bool is_hex_color(std::string_view text) {
    if (text.size() != 7 || text[0] != '#') return false;
    for (const char c : text.substr(1))
        if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

}  // namespace squawk::generation
