#include "common/domain/generation/image_request_json.hpp"

#include <stdexcept>

namespace squawk::generation {
namespace {

void put(nlohmann::json& out, const char* name, const std::string& value) {
    if (!value.empty()) out[name] = value;
}

std::string take(const nlohmann::json& payload, const char* name) {
    const auto found = payload.find(name);
    if (found == payload.end() || found->is_null()) return {};
    if (!found->is_string()) throw std::invalid_argument(std::string(name) + " must be a string");
    return found->get<std::string>();
}

std::vector<std::string> take_list(const nlohmann::json& payload, const char* name) {
    std::vector<std::string> out;
    const auto found = payload.find(name);
    if (found == payload.end() || found->is_null()) return out;
    if (!found->is_array()) throw std::invalid_argument(std::string(name) + " must be a list");
    for (const auto& item : *found) {
        if (!item.is_string())
            throw std::invalid_argument(std::string(name) + " must hold strings");
        out.push_back(item.get<std::string>());
    }
    return out;
}

std::string size_name(ImageSize size) {
    return std::to_string(size.width) + "x" + std::to_string(size.height);
}

}  // namespace

std::optional<ImageSize> parse_image_size(std::string_view name) {
    for (size_t i = 0; i < std::size(kImageSizeNames); ++i)
        if (kImageSizeNames[i] == name) return kImageSizes[i];
    return std::nullopt;
}

nlohmann::json to_json(const ImageRequest& r) {
    nlohmann::json out{{"size", size_name(r.size)}, {"format", r.format}};
    put(out, "template", r.template_name);
    put(out, "prompt", r.prompt);
    put(out, "model", r.model);
    put(out, "title", r.title);
    put(out, "subtitle", r.subtitle);
    put(out, "text", r.text);
    put(out, "author", r.author);
    if (!r.items.empty()) out["items"] = r.items;
    put(out, "value", r.value);
    put(out, "label", r.label);
    if (!r.background.empty()) out["background"] = r.background;
    put(out, "text_color", r.text_color);
    put(out, "accent_color", r.accent_color);
    return out;
}

ImageRequest image_request_from_json(const nlohmann::json& payload) {
    if (!payload.is_object()) throw std::invalid_argument("the payload must be an object");
    ImageRequest r;
    r.template_name = take(payload, "template");
    r.prompt = take(payload, "prompt");
    r.model = take(payload, "model");
    const auto size = parse_image_size(take(payload, "size"));
    if (!size) throw std::invalid_argument("size is not one of the offered sizes");
    r.size = *size;
    const auto format = parse_name<ImageFormat>(take(payload, "format"));
    if (!format) throw std::invalid_argument("format is not png or jpeg");
    r.format = *format;
    r.title = take(payload, "title");
    r.subtitle = take(payload, "subtitle");
    r.text = take(payload, "text");
    r.author = take(payload, "author");
    r.items = take_list(payload, "items");
    r.value = take(payload, "value");
    r.label = take(payload, "label");
    r.background = take_list(payload, "background");
    r.text_color = take(payload, "text_color");
    r.accent_color = take(payload, "accent_color");
    return r;
}

}  // namespace squawk::generation
