#include "common/core/config/host_port.hpp"

#include "common/core/text/ascii.hpp"

#include <charconv>

namespace squawk::config {

std::optional<HostPort> parse_host_port(std::string_view text, int lowest_port) {
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0) return std::nullopt;
    int port = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data() + colon + 1, end, port);
    if (error != std::errc() || stop != end || colon + 1 == text.size() || port < lowest_port ||
        port > 65535)
        return std::nullopt;
    return HostPort{std::string(text.substr(0, colon)), port};
}

std::optional<std::vector<HostPort>> parse_host_port_list(std::string_view text) {
    std::vector<HostPort> out;
    while (true) {
        const auto comma = text.find(',');
        auto address = parse_host_port(squawk::text::trim_blanks(text.substr(0, comma)));
        if (!address) return std::nullopt;
        out.push_back(std::move(*address));
        if (comma == std::string_view::npos) return out;
        text.remove_prefix(comma + 1);
    }
}

}  // namespace squawk::config
