// A pin's platform_options.pinterest: the board it goes to (required) and what Pinterest shows
// with it besides the post's text; checked when the post is created (check_options).
#pragma once

#include "common/domain/social/connector.hpp"

#include <nlohmann/json.hpp>

#include <string_view>

namespace squawk::social::pinterest {

// board_id: Pinterest's id of a board (digits), required. title (at most 100 characters), link
// (an http(s) address, instead of the first one in the text), alt_text (at most 500 characters)
// and board_section_id (digits): optional. Anything else is not an option of Pinterest.
OptionProblems check_options(const nlohmann::json& options, std::string_view post_type);

// Whether `text` is a Pinterest id: digits only, as boards, sections, pins and media have.
bool is_pinterest_id(std::string_view text);

}  // namespace squawk::social::pinterest
