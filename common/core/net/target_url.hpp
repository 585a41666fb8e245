// Outgoing target safety (webhook receivers, media fetches): parses a URL, resolves its host and
// refuses anything but public addresses, so a caller can connect to exactly the address checked.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::net {

// A URL that cannot be used as a target; what() is the reason shown to the client.
class TargetRefused : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct ParsedUrl {
    std::string scheme;  // "https" or "http", lower case
    std::string host;    // lower case; IPv6 without brackets
    int port = 0;        // explicit or the scheme's default
    std::string target;  // path and query, "/" when empty
};

// An IP address in binary form (network byte order): 4 bytes or 16 bytes.
struct IpAddress {
    std::vector<uint8_t> bytes;
    bool is_v4() const { return bytes.size() == 4; }
    std::string to_string() const;
};

// Throws TargetRefused for anything that is not an absolute http(s) URL with a host and no
// credentials, fragment, whitespace or control characters.
ParsedUrl parse_url(std::string_view url);

// Whether `a` and `b` are URLs of one origin: the same scheme, host and port (a scheme's default
// port written out or left implicit alike). False when either is not a URL parse_url accepts.
bool same_origin(std::string_view a, std::string_view b);

// A host written as an IPv4 number in any spelling resolvers accept (decimal "2130706433", hex
// "0x7f.1", octal "0177.0.0.1", short forms "127.1"); nothing when the host is a name. Throws
// TargetRefused for hosts that look numeric but are not valid addresses.
std::optional<IpAddress> parse_numeric_ipv4(std::string_view host);

// Why an address may not be a target (loopback, private, ...), or nothing when it is public.
std::optional<std::string> non_public_reason(const IpAddress& address);

struct CheckedTarget {
    ParsedUrl url;
    IpAddress address;  // connect to this and nothing else

    // "address:port" (IPv6 in brackets), the form http::Request::connect_to takes.
    std::string connect_to() const;
};

// Parses, resolves and classifies. Unless `allow_private` (local development), the scheme must
// be https and every resolved address public. Throws TargetRefused with the reason.
CheckedTarget check_target(std::string_view url, bool allow_private);

}  // namespace squawk::net
