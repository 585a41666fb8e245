// The head of an HTTP/1.1 request read straight off a connection (RFC 9112): its request line,
// its fields, and how its body is framed. The upload front reads heads before Pistache does, to
// find the bodies it streams to disk and where each request ends.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace squawk::api {

// Longer heads are left to Pistache, which refuses them.
inline constexpr size_t kMaxRequestHeadBytes = 64 * 1024;

// Views into the bytes it was parsed from.
struct RequestHead {
    std::string_view method;
    std::string_view target;
    std::string_view version;
    std::vector<std::pair<std::string_view, std::string_view>> fields;  // names as sent

    // The target without its query.
    std::string_view path() const;
    // The first field of that name (any letter case), its value trimmed.
    std::optional<std::string_view> field(std::string_view name) const;
    bool has_field(std::string_view name) const { return field(name).has_value(); }
    // The target's query split at '&' and '=', still percent-encoded; empty parts skipped.
    std::vector<std::pair<std::string, std::string>> raw_query() const;
};

// The head in `block`: the request line and field lines, without the empty line ending them.
// Nothing when it is not HTTP/1.x's grammar.
std::optional<RequestHead> parse_request_head(std::string_view block);

// How the body after a head is delimited.
struct BodyFraming {
    enum class Kind { none, length, chunked, unknown };
    Kind kind = Kind::none;
    long long length = 0;  // for `length`
};

// `unknown` for anything a reader could take two ways: a length that is not plain digits, two
// different lengths, a length beside Transfer-Encoding, a transfer coding other than chunked.
BodyFraming body_framing(const RequestHead& head);

// The head written out again with the fields named in `drop` left out and `add` appended, ending
// with the empty line.
std::string render_request_head(const RequestHead& head, const std::vector<std::string_view>& drop,
                                const std::vector<std::pair<std::string, std::string>>& add);

}  // namespace squawk::api
