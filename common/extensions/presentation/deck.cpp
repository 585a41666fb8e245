#include "common/extensions/presentation/deck.hpp"

#include <algorithm>
#include <cctype>

namespace squawk::presentation {

DeckColors colors_for(generation::PresentationTheme theme, const std::string& accent) {
    DeckColors colors;
    switch (theme) {
        case generation::PresentationTheme::light:
            colors = {"FFFFFF", "111827", "374151", "2563EB"};
            break;
        case generation::PresentationTheme::dark:
            colors = {"111827", "F9FAFB", "D1D5DB", "60A5FA"};
            break;
        case generation::PresentationTheme::brand:
            colors = {"1E1B4B", "FFFFFF", "E0E7FF", "F59E0B"};
            break;
    }
    if (generation::is_hex_color(accent)) {
        colors.accent = accent.substr(1);
        std::transform(colors.accent.begin(), colors.accent.end(), colors.accent.begin(),
                       [](char c) { return static_cast<char>(std::toupper(c)); });
    }
    return colors;
}

}  // namespace squawk::presentation
