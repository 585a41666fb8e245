#include "api/server/request_body.hpp"

#include "common/core/error/api_error.hpp"
#include "common/core/text/ascii.hpp"

#include <algorithm>
#include <string>

namespace squawk::api {
namespace {

ApiError invalid_body(const std::string& reason) {
    return ApiError(ErrorCode::InvalidRequest, "The request body is not valid JSON.",
                    {{"reason", reason}});
}

// The nesting depth of a JSON text, counting brackets outside strings; parsing and destroying a
// hostile document of deep nesting costs stack, so the depth is bounded first.
int nesting_depth(std::string_view text) {
    int depth = 0;
    int deepest = 0;
    bool in_string = false;
    bool escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            deepest = std::max(deepest, ++depth);
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return deepest;
}

bool takes_body(std::string_view method) {
    return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}

}  // namespace

void check_body_size(size_t body_bytes, long long max_body_bytes) {
    if (static_cast<long long>(body_bytes) > max_body_bytes)
        throw ApiError(ErrorCode::PayloadTooLarge, {}, {{"max_body_bytes", max_body_bytes}});
}

bool is_json_media_type(std::string_view content_type) {
    return text::equals_ignoring_case(
        text::trim_blanks(content_type.substr(0, content_type.find(';'))), "application/json");
}

nlohmann::json parse_request_body(std::string_view method, std::string_view body,
                                  std::optional<std::string_view> content_type) {
    if (body.empty() || !takes_body(method)) return nullptr;
    const bool declared_json = content_type && is_json_media_type(*content_type);
    if (!declared_json) {
        if (method == "DELETE")
            throw ApiError(ErrorCode::InvalidRequest,
                           "A DELETE with a body must declare Content-Type: application/json.",
                           {{"reason", "content type is not application/json"}});
        throw ApiError(ErrorCode::UnsupportedMediaType);
    }
    if (nesting_depth(body) > kMaxJsonDepth)
        throw invalid_body("nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    nlohmann::json parsed;
    try {
        parsed = nlohmann::json::parse(body);
    } catch (const nlohmann::json::parse_error& e) {
        // The parser's own text quotes the input back; the byte offset is enough to find it.
        throw invalid_body("malformed JSON near byte " + std::to_string(e.byte));
    }
    if (!parsed.is_object()) throw invalid_body("the body must be a JSON object");
    return parsed;
}

}  // namespace squawk::api
