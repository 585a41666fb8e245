#include "api/server/request_head.hpp"

#include "common/core/text/ascii.hpp"

namespace squawk::api {

namespace {

bool is_token(std::string_view text) {
    if (text.empty()) return false;
    for (char c : text)
        if (!text::is_http_token_char(c)) return false;
    return true;
}

std::optional<long long> plain_length(std::string_view text) {
    if (text.empty() || text.size() > 18) return std::nullopt;
    long long value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

}  // namespace

std::string_view RequestHead::path() const {
    return target.substr(0, target.find('?'));
}

std::vector<std::pair<std::string, std::string>> RequestHead::raw_query() const {
    std::vector<std::pair<std::string, std::string>> pairs;
    const size_t mark = target.find('?');
    if (mark == std::string_view::npos) return pairs;
    std::string_view rest = target.substr(mark + 1);
    while (!rest.empty()) {
        const size_t end = rest.find('&');
        const std::string_view part = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        if (part.empty()) continue;
        const size_t equals = part.find('=');
        if (equals == std::string_view::npos)
            pairs.emplace_back(part, "");
        else
            pairs.emplace_back(part.substr(0, equals), part.substr(equals + 1));
    }
    return pairs;
}

std::optional<std::string_view> RequestHead::field(std::string_view name) const {
    for (const auto& [n, v] : fields)
        if (text::equals_ignoring_case(n, name)) return v;
    return std::nullopt;
}

std::optional<RequestHead> parse_request_head(std::string_view block) {
    RequestHead head;
    const size_t line_end = block.find("\r\n");
    const std::string_view line = block.substr(0, line_end);
    const size_t first_space = line.find(' ');
    const size_t last_space = line.rfind(' ');
    if (first_space == std::string_view::npos || first_space == last_space) return std::nullopt;
    head.method = line.substr(0, first_space);
    head.target = line.substr(first_space + 1, last_space - first_space - 1);
    head.version = line.substr(last_space + 1);
    if (!is_token(head.method) || head.target.empty() || !head.version.starts_with("HTTP/1."))
        return std::nullopt;
    for (char c : head.target)
        if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F) return std::nullopt;
    std::string_view rest =
        line_end == std::string_view::npos ? std::string_view() : block.substr(line_end + 2);
    while (!rest.empty()) {
        const size_t end = rest.find("\r\n");
        const std::string_view field = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 2);
        const size_t colon = field.find(':');
        if (colon == std::string_view::npos || !is_token(field.substr(0, colon)))
            return std::nullopt;
        const std::string_view value = text::trim_blanks(field.substr(colon + 1));
        for (char c : value)
            if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7F)
                return std::nullopt;
        head.fields.emplace_back(field.substr(0, colon), value);
    }
    return head;
}

BodyFraming body_framing(const RequestHead& head) {
    constexpr BodyFraming unknown{BodyFraming::Kind::unknown, 0};
    std::optional<long long> length;
    bool chunked = false;
    for (const auto& [name, value] : head.fields) {
        if (text::equals_ignoring_case(name, "content-length")) {
            const auto parsed = plain_length(value);
            if (!parsed || (length && *length != *parsed)) return unknown;
            length = parsed;
        } else if (text::equals_ignoring_case(name, "transfer-encoding")) {
            if (chunked || !text::equals_ignoring_case(value, "chunked")) return unknown;
            chunked = true;
        }
    }
    if (chunked) return length ? unknown : BodyFraming{BodyFraming::Kind::chunked, 0};
    if (length && *length > 0) return {BodyFraming::Kind::length, *length};
    return {};
}

std::string render_request_head(const RequestHead& head, const std::vector<std::string_view>& drop,
                                const std::vector<std::pair<std::string, std::string>>& add) {
    std::string out;
    out.reserve(256);
    out.append(head.method).append(" ").append(head.target).append(" ").append(head.version);
    out.append("\r\n");
    for (const auto& [name, value] : head.fields) {
        bool dropped = false;
        for (const auto d : drop) dropped = dropped || text::equals_ignoring_case(name, d);
        if (!dropped) out.append(name).append(": ").append(value).append("\r\n");
    }
    for (const auto& [name, value] : add)
        out.append(name).append(": ").append(value).append("\r\n");
    out.append("\r\n");
    return out;
}

}  // namespace squawk::api
