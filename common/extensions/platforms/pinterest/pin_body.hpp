// What a pin carries as Pinterest's API takes it (PinCreate, PinUpdate): the post's text as the
// description, its link, the options' title, alt text and board section, and the media source.
#pragma once

#include "common/domain/social/connector.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace squawk::social::pinterest {

// The first http(s) address in `text`, where a pin's image leads; "" when there is none.
std::string first_link(std::string_view text);

// description, link (the option, else the text's first address), title, alt_text and
// board_section_id as far as the message has them: the fields an edit sends, and a new pin's
// besides its board and media.
nlohmann::json pin_fields(const Message& message);

// One image by URL, or a carousel of two to five (multiple_image_urls).
nlohmann::json image_source(const Message& message);
// A processed video upload, its cover the message's first image or else its first frame.
nlohmann::json video_source(const Message& message, const std::string& media_id);

}  // namespace squawk::social::pinterest
