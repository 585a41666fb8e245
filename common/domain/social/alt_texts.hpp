// A post's platform_options.<platform>.alt_texts: the description of each image, in the order of
// the post's media, that screen readers speak. Checked alike on every platform that takes them
// (X, Bluesky); each platform only bounds their length differently.
#pragma once

#include "common/domain/social/connector.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace squawk::social {

// Adds to `problems` what is wrong with `value` as an alt_texts array named `field`: not an array
// of strings, more than `max_items` of them, or one (named `field[i]`) over `max_chars`
// characters. An empty string is allowed: that image goes without a description.
void check_alt_texts(const nlohmann::json& value, const std::string& field, size_t max_items,
                     size_t max_chars, OptionProblems& problems);

// Adds a problem when `holder`'s alt_texts (the platform's options, or a thread part) describe
// more images than the `images` it has: a description past them would describe nothing, which is
// a mistake in the request rather than something to drop quietly. `prefix` names the holder.
void check_alt_texts_cover(const nlohmann::json& holder, size_t images, const std::string& prefix,
                           OptionProblems& problems);

// The description of image `index` in `holder`'s alt_texts (the platform's options, or a thread
// part); "" when it gives none. Entries past the images the post has are never read.
std::string alt_text_of(const nlohmann::json& holder, size_t index);

}  // namespace squawk::social
