#include "common/domain/generation/image_request_json.hpp"

#include "common/domain/generation/payload_members.hpp"

#include <stdexcept>

namespace squawk::generation {
namespace {

void put(nlohmann::json& out, const char* name, const std::string& value) {
    if (!value.empty()) out[name] = value;
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
    r.template_name = string_member(payload, "template");
    r.prompt = string_member(payload, "prompt");
    r.model = string_member(payload, "model");
    const auto size = parse_image_size(string_member(payload, "size"));
    if (!size) throw std::invalid_argument("size is not one of the offered sizes");
    r.size = *size;
    const auto format = parse_name<ImageFormat>(string_member(payload, "format"));
    if (!format) throw std::invalid_argument("format is not png or jpeg");
    r.format = *format;
    r.title = string_member(payload, "title");
    r.subtitle = string_member(payload, "subtitle");
    r.text = string_member(payload, "text");
    r.author = string_member(payload, "author");
    r.items = take_list(payload, "items");
    r.value = string_member(payload, "value");
    r.label = string_member(payload, "label");
    r.background = take_list(payload, "background");
    r.text_color = string_member(payload, "text_color");
    r.accent_color = string_member(payload, "accent_color");
    return r;
}

}  // namespace squawk::generation
