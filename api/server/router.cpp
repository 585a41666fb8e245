#include "api/server/router.hpp"

#include "api/server/url_decode.hpp"
#include "common/core/http/form_encoding.hpp"

#include <algorithm>

namespace squawk::api {
namespace {

std::vector<std::string_view> split_path(std::string_view path) {
    std::vector<std::string_view> segments;
    // The leading '/' opens the first segment; "/" alone has one empty segment.
    size_t start = 1;
    while (true) {
        const size_t slash = path.find('/', start);
        segments.push_back(
            path.substr(start, slash == std::string_view::npos ? slash : slash - start));
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    return segments;
}

bool is_param(std::string_view segment) {
    return segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
}

// Fills `params` when every segment matches; decoded literal segments must equal the pattern's.
bool segments_match(const std::vector<std::string_view>& pattern,
                    const std::vector<std::string>& decoded, PathParams& params) {
    if (pattern.size() != decoded.size()) return false;
    PathParams found;
    for (size_t i = 0; i < pattern.size(); ++i) {
        if (is_param(pattern[i])) {
            if (decoded[i].empty() || decoded[i].size() > kMaxPathParamBytes) return false;
            found.emplace(std::string(pattern[i].substr(1, pattern[i].size() - 2)), decoded[i]);
        } else if (pattern[i] != decoded[i]) {
            return false;
        }
    }
    params = std::move(found);
    return true;
}

}  // namespace

Router::Router(std::span<const Route> routes) {
    for (const auto& route : routes) routes_.push_back({&route, split_path(route.pattern)});
}

RouteMatch Router::match(std::string_view method, std::string_view raw_path) const {
    RouteMatch result;
    if (raw_path.empty() || raw_path.front() != '/' || raw_path.size() > kMaxPathBytes) {
        result.outcome = RouteMatch::Outcome::not_found;
        return result;
    }
    std::vector<std::string> decoded;
    for (auto segment : split_path(raw_path)) {
        auto d = http::percent_decode(segment, false);
        if (!d) {
            result.outcome = RouteMatch::Outcome::malformed;
            return result;
        }
        decoded.push_back(std::move(*d));
    }
    for (const auto& compiled : routes_) {
        PathParams params;
        if (!segments_match(compiled.segments, decoded, params)) continue;
        if (compiled.route->method == method) {
            result.outcome = RouteMatch::Outcome::found;
            result.route = compiled.route;
            result.params = std::move(params);
            result.allowed_methods.clear();
            return result;
        }
        const std::string m(compiled.route->method);
        if (std::find(result.allowed_methods.begin(), result.allowed_methods.end(), m) ==
            result.allowed_methods.end())
            result.allowed_methods.push_back(m);
    }
    result.outcome = result.allowed_methods.empty() ? RouteMatch::Outcome::not_found
                                                    : RouteMatch::Outcome::method_not_allowed;
    return result;
}

}  // namespace squawk::api
