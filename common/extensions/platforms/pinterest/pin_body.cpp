#include "common/extensions/platforms/pinterest/pin_body.hpp"

#include "common/domain/social/platform_api.hpp"

#include <cctype>

namespace squawk::social::pinterest {
namespace {

using nlohmann::json;

// Where an address written in running text ends: at white space, or at closing punctuation
// that ends the sentence rather than the address.
size_t link_end(std::string_view text, size_t start) {
    size_t end = start;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
    while (end > start &&
           std::string_view(".,;:!?)]'\"").find(text[end - 1]) != std::string_view::npos)
        --end;
    return end;
}

void copy_option(const Message& message, const char* name, json& fields) {
    if (auto value = json_text(message.options, name); !value.empty()) fields[name] = value;
}

}  // namespace

std::string first_link(std::string_view text) {
    for (size_t at = 0; at < text.size(); ++at) {
        const auto rest = text.substr(at);
        if (!rest.starts_with("https://") && !rest.starts_with("http://")) continue;
        if (at > 0 && std::isalnum(static_cast<unsigned char>(text[at - 1]))) continue;
        const size_t end = link_end(text, at);
        const size_t scheme = rest.starts_with("https://") ? 8 : 7;
        if (end > at + scheme) return std::string(text.substr(at, end - at));
    }
    return {};
}

json pin_fields(const Message& message) {
    json fields = json::object();
    if (!message.text.empty()) fields["description"] = message.text;
    auto link = json_text(message.options, "link");
    if (link.empty()) link = first_link(message.text);
    if (!link.empty()) fields["link"] = link;
    copy_option(message, "title", fields);
    copy_option(message, "alt_text", fields);
    copy_option(message, "board_section_id", fields);
    return fields;
}

json image_source(const Message& message) {
    if (message.image_urls.size() == 1)
        return {{"source_type", "image_url"}, {"url", message.image_urls.front()}};
    json items = json::array();
    for (const auto& url : message.image_urls) items.push_back({{"url", url}});
    return {{"source_type", "multiple_image_urls"}, {"items", items}};
}

json video_source(const Message& message, const std::string& media_id) {
    json source = {{"source_type", "video_id"}, {"media_id", media_id}};
    if (message.image_urls.empty())
        source["cover_image_key_frame_time"] = 0;
    else
        source["cover_image_url"] = message.image_urls.front();
    return source;
}

}  // namespace squawk::social::pinterest
