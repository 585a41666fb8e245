#include "api/server/multipart_form.hpp"

#include "common/core/text/ascii.hpp"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

namespace squawk::api {
namespace {

constexpr std::string_view kCrlf = "\r\n";

bool is_space(char c) {
    return c == ' ' || c == '\t';
}

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
    return text;
}

// RFC 2046 bchars (space allowed, but not last).
bool is_boundary_char(char c) {
    if (std::isalnum(static_cast<unsigned char>(c))) return true;
    return std::string_view("'()+_,-./:=? ").find(c) != std::string_view::npos;
}

// A header value "type; a=b; c="d"": its type and parameters (names lower-cased, quoted values
// unescaped). Nothing when it does not follow that grammar.
struct HeaderValue {
    std::string type;
    std::vector<std::pair<std::string, std::string>> params;

    const std::string* param(std::string_view name) const {
        for (const auto& [k, v] : params)
            if (k == name) return &v;
        return nullptr;
    }
};

std::optional<HeaderValue> parse_header_value(std::string_view text) {
    HeaderValue out;
    size_t i = 0;
    const auto skip_space = [&] {
        while (i < text.size() && is_space(text[i])) ++i;
    };
    const auto token = [&] {
        const size_t start = i;
        while (i < text.size() && (text::is_http_token_char(text[i]) || text[i] == '/')) ++i;
        return text.substr(start, i - start);
    };
    skip_space();
    const auto type = token();
    if (type.empty()) return std::nullopt;
    out.type = text::ascii_lowercase(type);
    while (true) {
        skip_space();
        if (i == text.size()) return out;
        if (text[i] != ';') return std::nullopt;
        ++i;
        skip_space();
        if (i == text.size()) return out;  // a trailing ';' is common and harmless
        const auto name = token();
        if (name.empty() || name.find('/') != std::string_view::npos) return std::nullopt;
        skip_space();
        if (i == text.size() || text[i] != '=') return std::nullopt;
        ++i;
        skip_space();
        std::string value;
        if (i < text.size() && text[i] == '"') {
            ++i;
            bool closed = false;
            while (i < text.size()) {
                char c = text[i++];
                if (c == '"') {
                    closed = true;
                    break;
                }
                if (c == '\\' && i < text.size()) c = text[i++];
                value.push_back(c);
            }
            if (!closed) return std::nullopt;
        } else {
            const size_t start = i;
            while (i < text.size() && text[i] != ';' && !is_space(text[i])) ++i;
            value = std::string(text.substr(start, i - start));
            if (value.empty()) return std::nullopt;
        }
        out.params.emplace_back(text::ascii_lowercase(name), std::move(value));
    }
}

// Reads one part's header block into `part`; the reason it cannot, or empty.
std::string read_part_headers(std::string_view block, FormPartHead& part) {
    bool disposition_seen = false;
    while (!block.empty()) {
        const size_t end = block.find(kCrlf);
        const std::string_view line = block.substr(0, end);
        block = end == std::string_view::npos ? std::string_view() : block.substr(end + 2);
        if (line.empty() || is_space(line.front())) return "a part has a malformed header line";
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos) return "a part has a header line without a colon";
        const std::string_view name = line.substr(0, colon);
        const std::string_view value = trimmed(line.substr(colon + 1));
        if (text::equals_ignoring_case(name, "content-disposition")) {
            const auto parsed = parse_header_value(value);
            if (!parsed || parsed->type != "form-data")
                return "a part's Content-Disposition is not form-data";
            const auto* field = parsed->param("name");
            if (!field || field->empty()) return "a part's Content-Disposition has no name";
            part.name = *field;
            if (const auto* file = parsed->param("filename")) part.filename = *file;
            disposition_seen = true;
        } else if (text::equals_ignoring_case(name, "content-type")) {
            part.content_type = std::string(value);
        }
    }
    return disposition_seen ? std::string() : "a part has no Content-Disposition";
}

}  // namespace

std::optional<std::string> form_boundary(std::string_view content_type) {
    const auto parsed = parse_header_value(content_type);
    if (!parsed || parsed->type != "multipart/form-data") return std::nullopt;
    const auto* boundary = parsed->param("boundary");
    if (!boundary || boundary->empty() || boundary->size() > kMaxBoundaryChars) return std::nullopt;
    if (boundary->back() == ' ') return std::nullopt;
    for (char c : *boundary)
        if (!is_boundary_char(c)) return std::nullopt;
    return *boundary;
}

// The body is read as if it began with CRLF, so a first boundary line at the very start is found
// by the same search as every later delimiter.
FormReader::FormReader(std::string_view boundary, FormSink& sink)
    : sink_(sink), delimiter_("\r\n--" + std::string(boundary)), pending_(kCrlf) {
    if (boundary.empty()) fail("the form has no boundary");
}

bool FormReader::fail(std::string reason) {
    state_ = State::failed;
    error_ = std::move(reason);
    pending_.clear();
    return false;
}

bool FormReader::feed(std::string_view bytes) {
    if (state_ == State::failed) return false;
    if (state_ == State::epilogue) return true;
    pending_.append(bytes);
    return advance();
}

bool FormReader::finish() {
    switch (state_) {
        case State::failed:
            return false;
        case State::epilogue:
            return true;
        case State::preamble:
            return fail("the body has no boundary delimiter");
        default:
            return fail("the form is not closed by its boundary");
    }
}

bool FormReader::advance() {
    // Bytes a search holds back: they could be the start of a delimiter.
    const size_t hold = delimiter_.size() - 1;
    size_t cursor = 0;
    while (true) {
        const std::string_view rest = std::string_view(pending_).substr(cursor);
        switch (state_) {
            case State::preamble:
            case State::body: {
                const size_t found = rest.find(delimiter_);
                const size_t keep = found != std::string_view::npos ? found
                                    : rest.size() > hold            ? rest.size() - hold
                                                                    : 0;
                if (state_ == State::body && keep > 0) sink_.part_data(rest.substr(0, keep));
                if (found == std::string_view::npos) {
                    pending_.erase(0, cursor + keep);
                    return true;
                }
                if (state_ == State::body) sink_.part_ends();
                cursor += found + delimiter_.size();
                state_ = State::after_delimiter;
                break;
            }
            case State::after_delimiter: {
                if (rest.size() < 2) {
                    pending_.erase(0, cursor);
                    return true;
                }
                if (rest.starts_with("--")) {
                    state_ = State::epilogue;
                    pending_.clear();
                    return true;
                }
                // Transport padding (RFC 2046) may sit between the boundary and its CRLF.
                size_t i = 0;
                while (i < rest.size() && is_space(rest[i])) ++i;
                if (i > kMaxPartHeaderBytes) return fail("a boundary line has trailing bytes");
                if (rest.size() - i < 2) {
                    pending_.erase(0, cursor);
                    return true;
                }
                if (rest.substr(i, 2) != kCrlf) return fail("a boundary line has trailing bytes");
                if (parts_ == kMaxFormParts)
                    return fail("the form has more than " + std::to_string(kMaxFormParts) +
                                " parts");
                cursor += i + 2;
                state_ = State::headers;
                break;
            }
            case State::headers: {
                if (rest.starts_with(kCrlf)) return fail("a part has no Content-Disposition");
                const size_t end = rest.find("\r\n\r\n");
                const bool too_long = end == std::string_view::npos
                                          ? rest.size() > kMaxPartHeaderBytes + 4
                                          : end > kMaxPartHeaderBytes;
                if (too_long)
                    return fail("a part's headers are unterminated or longer than " +
                                std::to_string(kMaxPartHeaderBytes) + " bytes");
                if (end == std::string_view::npos) {
                    pending_.erase(0, cursor);
                    return true;
                }
                FormPartHead head;
                if (auto reason = read_part_headers(rest.substr(0, end), head); !reason.empty())
                    return fail(std::move(reason));
                ++parts_;
                sink_.part_begins(head);
                cursor += end + 4;
                state_ = State::body;
                break;
            }
            case State::epilogue:
            case State::failed:
                return state_ != State::failed;
        }
    }
}

}  // namespace squawk::api
