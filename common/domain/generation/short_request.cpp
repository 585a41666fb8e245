#include "common/domain/generation/short_request.hpp"

#include "common/domain/generation/caption_styles.hpp"
#include "common/domain/generation/payload_members.hpp"

#include <algorithm>
#include <span>
#include <stdexcept>

namespace squawk::generation {
namespace {

bool listed(std::span<const std::string_view> values, std::string_view value) {
    return std::find(values.begin(), values.end(), value) != values.end();
}

}  // namespace

bool ShortRequest::has_format(std::string_view format) const {
    return std::find(caption_format.begin(), caption_format.end(), format) != caption_format.end();
}

std::optional<int> fixed_clip_seconds(std::string_view clip_length) {
    if (clip_length == kAutoClipLength || !listed(kClipLengths, clip_length)) return std::nullopt;
    return std::stoi(std::string(clip_length));
}

nlohmann::json ShortRequest::to_json() const {
    nlohmann::json out{{"media_id", media_id},
                       {"caption_style", caption_style},
                       {"caption_format", caption_format},
                       {"clip_length", clip_length},
                       {"max_clips", max_clips}};
    if (!genre.empty()) out["genre"] = genre;
    return out;
}

ShortRequest ShortRequest::from_json(const nlohmann::json& payload) {
    if (!payload.is_object()) throw std::invalid_argument("the payload must be an object");
    ShortRequest r;
    r.media_id = string_member(payload, "media_id");
    if (r.media_id.empty()) throw std::invalid_argument("media_id is required");
    r.caption_style = string_member(payload, "caption_style");
    if (!find_caption_style(r.caption_style))
        throw std::invalid_argument("caption_style is not one of the caption styles");
    const auto formats = payload.find("caption_format");
    if (formats != payload.end() && !formats->is_null()) {
        if (!formats->is_array()) throw std::invalid_argument("caption_format must be an array");
        for (const auto& f : *formats) {
            if (!f.is_string() || !listed(kCaptionFormats, f.get<std::string>()))
                throw std::invalid_argument("caption_format lists an unknown format");
            r.caption_format.push_back(f.get<std::string>());
        }
    }
    r.clip_length = string_member(payload, "clip_length");
    if (!listed(kClipLengths, r.clip_length))
        throw std::invalid_argument("clip_length is not one of the clip lengths");
    const auto clips = payload.find("max_clips");
    if (clips == payload.end() || !clips->is_number_integer() || clips->get<int>() < 1 ||
        clips->get<int>() > kMaxShortClips)
        throw std::invalid_argument("max_clips must be 1 to 5");
    r.max_clips = clips->get<int>();
    r.genre = string_member(payload, "genre");
    if (!r.genre.empty() && !listed(kShortGenres, r.genre))
        throw std::invalid_argument("genre is not one of the genres");
    return r;
}

}  // namespace squawk::generation
