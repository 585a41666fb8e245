#include "api/dashboard/shown.hpp"

namespace squawk::api::dashboard {

std::string shown_time(time::TimePoint t) {
    std::string text = time::format_iso8601(t).substr(0, 19);
    text[10] = ' ';
    return text;
}

std::string shown_time(const std::optional<time::TimePoint>& t) {
    return t ? shown_time(*t) : std::string("—");
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) {
        if (!out.empty()) out += ", ";
        out += item;
    }
    return out;
}

}  // namespace squawk::api::dashboard
