#include "common/core/text/json_string.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace squawk::text {

void append_json_string(std::string& out, std::string_view text) {
    // Printable ASCII other than '"' and '\\' needs no escaping: the common case, without a copy.
    const bool plain = std::all_of(text.begin(), text.end(), [](unsigned char c) {
        return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
    });
    if (!plain) {
        out += nlohmann::json(std::string(text))
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        return;
    }
    out += '"';
    out += text;
    out += '"';
}

}  // namespace squawk::text
