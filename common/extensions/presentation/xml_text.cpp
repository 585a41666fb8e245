#include "common/extensions/presentation/xml_text.hpp"

#include "common/core/text/markup_escape.hpp"

namespace squawk::presentation {

std::string xml_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        if (const auto entity = squawk::text::markup_entity(c); !entity.empty())
            out += entity;
        else if (c == '\t' || c == '\n' || c == '\r')
            out += ' ';
        else if (static_cast<unsigned char>(c) >= 0x20)
            out += c;
    }
    return out;
}

}  // namespace squawk::presentation
