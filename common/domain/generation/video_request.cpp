#include "common/domain/generation/video_request.hpp"

#include "common/domain/generation/payload_members.hpp"

#include <stdexcept>

namespace squawk::generation {

std::optional<ImageSize> parse_video_size(std::string_view name) {
    const auto x = name.find('x');
    if (x == std::string_view::npos) return std::nullopt;
    for (const auto offered : kVideoSizeNames)
        if (offered == name)
            return ImageSize{std::stoi(std::string(name.substr(0, x))),
                             std::stoi(std::string(name.substr(x + 1)))};
    return std::nullopt;
}

std::string video_size_name(ImageSize size) {
    return std::to_string(size.width) + "x" + std::to_string(size.height);
}

nlohmann::json VideoRequest::to_json() const {
    nlohmann::json listed = nlohmann::json::array();
    for (const auto& scene : scenes) {
        nlohmann::json s{{"text", scene.text}};
        if (!scene.image_media_id.empty()) s["image_media_id"] = scene.image_media_id;
        listed.push_back(std::move(s));
    }
    nlohmann::json out{
        {"scenes", std::move(listed)}, {"size", video_size_name(size)}, {"voice", voice}};
    if (!title.empty()) out["title"] = title;
    return out;
}

VideoRequest VideoRequest::from_json(const nlohmann::json& payload) {
    if (!payload.is_object()) throw std::invalid_argument("the payload must be an object");
    VideoRequest r;
    r.title = string_member(payload, "title");
    const auto size = parse_video_size(string_member(payload, "size"));
    if (!size) throw std::invalid_argument("size is not one of the video sizes");
    r.size = *size;
    r.voice = string_member(payload, "voice");
    if (r.voice.empty()) r.voice = kDefaultVoice;
    const auto scenes = payload.find("scenes");
    if (scenes == payload.end() || !scenes->is_array() || scenes->empty() ||
        scenes->size() > kMaxVideoScenes)
        throw std::invalid_argument("scenes must list 1 to 20 scenes");
    for (size_t i = 0; i < scenes->size(); ++i) {
        const auto& scene = (*scenes)[i];
        const std::string field = "scenes[" + std::to_string(i) + "]";
        if (!scene.is_object()) throw std::invalid_argument(field + " must be an object");
        VideoScene s{string_member(scene, "text"), string_member(scene, "image_media_id")};
        if (s.text.empty()) throw std::invalid_argument(field + ".text is required");
        r.scenes.push_back(std::move(s));
    }
    return r;
}

}  // namespace squawk::generation
