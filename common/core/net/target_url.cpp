#include "common/core/net/target_url.hpp"

#include "common/core/text/ascii.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <memory>

namespace squawk::net {
namespace {

constexpr size_t kMaxUrlBytes = 2048;

bool has_forbidden_characters(std::string_view s) {
    return std::any_of(s.begin(), s.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u <= 0x20 || u == 0x7f || c == '\\';
    });
}

// One part of a numeric IPv4 spelling: decimal, 0x hex or leading-zero octal.
std::optional<uint64_t> parse_number(std::string_view part) {
    if (part.empty()) return std::nullopt;
    int base = 10;
    if (part.size() >= 2 && part[0] == '0' && (part[1] == 'x' || part[1] == 'X')) {
        base = 16;
        part.remove_prefix(2);
        if (part.empty()) return 0;  // "0x" alone is zero for resolvers
    } else if (part.size() >= 2 && part[0] == '0') {
        base = 8;
        part.remove_prefix(1);
    }
    uint64_t value = 0;
    for (char c : part) {
        int d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return std::nullopt;
        if (d >= base) return std::nullopt;
        value = value * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
        if (value > 0xFFFFFFFFull) return 0x100000000ull;  // too big; reported by the caller
    }
    return value;
}

IpAddress v4(uint32_t value) {
    return IpAddress{{static_cast<uint8_t>(value >> 24), static_cast<uint8_t>(value >> 16),
                      static_cast<uint8_t>(value >> 8), static_cast<uint8_t>(value)}};
}

bool in_v4(uint32_t a, uint32_t network, int prefix) {
    const uint32_t mask = prefix == 0 ? 0 : ~uint32_t{0} << (32 - prefix);
    return (a & mask) == (network & mask);
}

constexpr uint32_t ip4(int a, int b, int c, int d) {
    return (static_cast<uint32_t>(a) << 24) | (static_cast<uint32_t>(b) << 16) |
           (static_cast<uint32_t>(c) << 8) | static_cast<uint32_t>(d);
}

std::optional<std::string> v4_reason(uint32_t a) {
    struct Range {
        uint32_t network;
        int prefix;
        const char* reason;
    };
    static const Range kRanges[] = {
        {ip4(169, 254, 169, 254), 32, "a cloud metadata address"},
        {ip4(100, 100, 100, 200), 32, "a cloud metadata address"},
        {ip4(0, 0, 0, 0), 8, "an unspecified address"},
        {ip4(10, 0, 0, 0), 8, "a private address"},
        {ip4(100, 64, 0, 0), 10, "a carrier-grade NAT address"},
        {ip4(127, 0, 0, 0), 8, "a loopback address"},
        {ip4(169, 254, 0, 0), 16, "a link-local address"},
        {ip4(172, 16, 0, 0), 12, "a private address"},
        {ip4(192, 0, 0, 0), 24, "a reserved address"},
        {ip4(192, 0, 2, 0), 24, "a documentation address"},
        {ip4(192, 88, 99, 0), 24, "a reserved relay address"},
        {ip4(192, 168, 0, 0), 16, "a private address"},
        {ip4(198, 18, 0, 0), 15, "a benchmarking address"},
        {ip4(198, 51, 100, 0), 24, "a documentation address"},
        {ip4(203, 0, 113, 0), 24, "a documentation address"},
        {ip4(224, 0, 0, 0), 4, "a multicast address"},
        {ip4(240, 0, 0, 0), 4, "a reserved address"},
    };
    for (const auto& r : kRanges)
        if (in_v4(a, r.network, r.prefix)) return std::string(r.reason);
    return std::nullopt;
}

uint32_t embedded_v4(const std::vector<uint8_t>& b, size_t at) {
    return (static_cast<uint32_t>(b[at]) << 24) | (static_cast<uint32_t>(b[at + 1]) << 16) |
           (static_cast<uint32_t>(b[at + 2]) << 8) | static_cast<uint32_t>(b[at + 3]);
}

bool zeros(const std::vector<uint8_t>& b, size_t from, size_t to) {
    return std::all_of(b.begin() + static_cast<long>(from), b.begin() + static_cast<long>(to),
                       [](uint8_t x) { return x == 0; });
}

std::optional<std::string> v6_reason(const std::vector<uint8_t>& b) {
    if (zeros(b, 0, 15) && b[15] == 0) return "an unspecified address";
    if (zeros(b, 0, 15) && b[15] == 1) return "a loopback address";
    // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d)
    // reach the embedded IPv4 address, so it decides.
    if (zeros(b, 0, 10) && b[10] == 0xff && b[11] == 0xff) {
        auto r = v4_reason(embedded_v4(b, 12));
        return r ? "an IPv4-mapped " + *r : r;
    }
    if (zeros(b, 0, 12)) return "an IPv4-compatible address";
    if (b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b && zeros(b, 4, 12)) {
        auto r = v4_reason(embedded_v4(b, 12));
        return r ? "a NAT64 " + *r : r;
    }
    if (b[0] == 0x20 && b[1] == 0x02) {  // 6to4 carries an IPv4 address in bytes 2..5
        auto r = v4_reason(embedded_v4(b, 2));
        return r ? "a 6to4 " + *r : r;
    }
    if (b[0] == 0xfd && b[1] == 0x00 && b[2] == 0x0e && b[3] == 0xc2)
        return "a cloud metadata address";
    if ((b[0] & 0xfe) == 0xfc) return "a unique-local address";
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return "a link-local address";
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0) return "a site-local address";
    if (b[0] == 0xff) return "a multicast address";
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8)
        return "a documentation address";
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x00 && b[3] == 0x00) return "a Teredo address";
    if (b[0] == 0x01 && zeros(b, 1, 8)) return "a discard-only address";
    return std::nullopt;
}

std::optional<IpAddress> parse_ipv6(const std::string& text) {
    in6_addr a{};
    if (inet_pton(AF_INET6, text.c_str(), &a) != 1) return std::nullopt;
    return IpAddress{std::vector<uint8_t>(a.s6_addr, a.s6_addr + 16)};
}

std::vector<IpAddress> resolve(const std::string& host) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const int rc = getaddrinfo(host.c_str(), nullptr, &hints, &found);
    if (rc != 0) throw TargetRefused("the host name '" + host + "' does not resolve");
    std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> guard(found, freeaddrinfo);
    std::vector<IpAddress> out;
    for (auto* p = found; p; p = p->ai_next) {
        if (p->ai_family == AF_INET) {
            const auto* s = reinterpret_cast<const sockaddr_in*>(p->ai_addr);
            out.push_back(v4(ntohl(s->sin_addr.s_addr)));
        } else if (p->ai_family == AF_INET6) {
            const auto* s = reinterpret_cast<const sockaddr_in6*>(p->ai_addr);
            out.push_back(
                IpAddress{std::vector<uint8_t>(s->sin6_addr.s6_addr, s->sin6_addr.s6_addr + 16)});
        }
    }
    if (out.empty()) throw TargetRefused("the host name '" + host + "' has no address");
    return out;
}

}  // namespace

std::string CheckedTarget::connect_to() const {
    const std::string host =
        address.is_v4() ? address.to_string() : "[" + address.to_string() + "]";
    return host + ":" + std::to_string(url.port);
}

std::string IpAddress::to_string() const {
    char text[INET6_ADDRSTRLEN] = {};
    inet_ntop(is_v4() ? AF_INET : AF_INET6, bytes.data(), text, sizeof text);
    return text;
}

ParsedUrl parse_url(std::string_view url) {
    if (url.empty()) throw TargetRefused("the URL is empty");
    if (url.size() > kMaxUrlBytes) throw TargetRefused("the URL is longer than 2048 characters");
    if (has_forbidden_characters(url))
        throw TargetRefused("the URL contains whitespace, control characters or backslashes");
    const auto colon = url.find("://");
    if (colon == std::string_view::npos) throw TargetRefused("the URL is not absolute");
    ParsedUrl p;
    p.scheme = text::ascii_lowercase(url.substr(0, colon));
    if (p.scheme != "https" && p.scheme != "http")
        throw TargetRefused("the URL scheme must be https");
    std::string_view rest = url.substr(colon + 3);
    if (rest.find('#') != std::string_view::npos)
        throw TargetRefused("the URL must not contain a fragment");
    const auto path_at = rest.find_first_of("/?");
    const std::string_view authority = rest.substr(0, path_at);
    p.target = path_at == std::string_view::npos ? "/" : std::string(rest.substr(path_at));
    if (p.target.front() == '?') p.target.insert(0, "/");
    if (authority.find('@') != std::string_view::npos)
        throw TargetRefused("the URL must not contain credentials");
    if (authority.find('%') != std::string_view::npos)
        throw TargetRefused("the URL host must not be percent-encoded");
    std::string_view host_part = authority;
    std::string_view port_part;
    if (!authority.empty() && authority.front() == '[') {
        const auto close = authority.find(']');
        if (close == std::string_view::npos) throw TargetRefused("the URL has an unclosed '['");
        host_part = authority.substr(1, close - 1);
        const auto after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':') throw TargetRefused("the URL host is malformed");
            port_part = after.substr(1);
        }
        if (!parse_ipv6(std::string(host_part)))
            throw TargetRefused("the URL host is not a valid IPv6 address");
    } else {
        const auto c = authority.rfind(':');
        if (c != std::string_view::npos) {
            host_part = authority.substr(0, c);
            port_part = authority.substr(c + 1);
        }
        if (host_part.find(':') != std::string_view::npos)
            throw TargetRefused("the URL host is malformed");
    }
    if (host_part.empty()) throw TargetRefused("the URL has no host");
    if (host_part.size() > 253) throw TargetRefused("the URL host is too long");
    p.host = text::ascii_lowercase(host_part);
    p.port = p.scheme == "https" ? 443 : 80;
    if (!port_part.empty() || authority.ends_with(":")) {
        if (port_part.empty() || port_part.size() > 5 ||
            !std::all_of(port_part.begin(), port_part.end(),
                         [](char c) { return c >= '0' && c <= '9'; }))
            throw TargetRefused("the URL port is not a number");
        p.port = std::stoi(std::string(port_part));
        if (p.port < 1 || p.port > 65535) throw TargetRefused("the URL port is out of range");
    }
    return p;
}

std::optional<IpAddress> parse_numeric_ipv4(std::string_view host) {
    std::string_view h = host;
    if (!h.empty() && h.back() == '.') h.remove_suffix(1);  // "127.0.0.1." is the same host
    std::vector<std::string_view> parts;
    size_t start = 0;
    for (;;) {
        const auto dot = h.find('.', start);
        parts.push_back(h.substr(start, dot == std::string_view::npos ? h.npos : dot - start));
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    // Only a host whose last label is a number is an IPv4 spelling; "0x1.example.com" is a name.
    const auto last = parse_number(parts.back());
    if (!last) return std::nullopt;
    if (parts.size() > 4) throw TargetRefused("the URL host is not a valid IPv4 address");
    std::vector<uint64_t> numbers;
    for (const auto& part : parts) {
        const auto n = parse_number(part);
        if (!n) throw TargetRefused("the URL host is not a valid IPv4 address");
        numbers.push_back(*n);
    }
    for (size_t i = 0; i + 1 < numbers.size(); ++i)
        if (numbers[i] > 255) throw TargetRefused("the URL host is not a valid IPv4 address");
    const int remaining_bytes = 5 - static_cast<int>(numbers.size());
    if (numbers.back() >= (uint64_t{1} << (8 * remaining_bytes)))
        throw TargetRefused("the URL host is not a valid IPv4 address");
    uint64_t value = numbers.back();
    for (size_t i = 0; i + 1 < numbers.size(); ++i) value += numbers[i] << (8 * (3 - i));
    return v4(static_cast<uint32_t>(value));
}

std::optional<std::string> non_public_reason(const IpAddress& address) {
    if (address.is_v4()) return v4_reason(embedded_v4(address.bytes, 0));
    if (address.bytes.size() == 16) return v6_reason(address.bytes);
    return "not an IP address";
}

CheckedTarget check_target(std::string_view url, bool allow_private) {
    CheckedTarget t;
    t.url = parse_url(url);
    if (t.url.scheme != "https" && !allow_private)
        throw TargetRefused("the URL scheme must be https");
    std::vector<IpAddress> addresses;
    if (auto v6 = parse_ipv6(t.url.host)) {
        addresses.push_back(*v6);
    } else if (auto n = parse_numeric_ipv4(t.url.host)) {
        addresses.push_back(*n);
    } else {
        const std::string name =
            t.url.host.ends_with('.') ? t.url.host.substr(0, t.url.host.size() - 1) : t.url.host;
        if (name.empty() ||
            name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-._") != std::string::npos)
            throw TargetRefused("the URL host is not a valid host name");
        if (!allow_private && (name == "localhost" || name.ends_with(".localhost")))
            throw TargetRefused("the URL host is a loopback name");
        addresses = resolve(name);
    }
    if (!allow_private) {
        for (const auto& a : addresses)
            if (auto why = non_public_reason(a))
                throw TargetRefused("the URL host resolves to " + *why + " (" + a.to_string() +
                                    ")");
    }
    t.address = addresses.front();
    return t;
}

bool same_origin(std::string_view a, std::string_view b) {
    try {
        const auto first = parse_url(a);
        const auto second = parse_url(b);
        return first.scheme == second.scheme && first.host == second.host &&
               first.port == second.port;
    } catch (const TargetRefused&) {
        return false;
    }
}

}  // namespace squawk::net
