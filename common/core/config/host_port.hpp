// "host:port" as settings write addresses (api.listen, redis.sentinels): the last colon splits,
// so a bare IPv6 address needs brackets like anywhere else.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::config {

struct HostPort {
    std::string host;
    int port = 0;

    bool operator==(const HostPort&) const = default;
};

// Nothing unless `text` is a non-empty host, a colon and a port from `lowest_port` to 65535.
std::optional<HostPort> parse_host_port(std::string_view text, int lowest_port = 1);
// Comma-separated addresses, blanks around each ignored; nothing when one is malformed or the
// list is empty.
std::optional<std::vector<HostPort>> parse_host_port_list(std::string_view text);

}  // namespace squawk::config
