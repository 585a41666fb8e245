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

void PathMatcher::add(std::string_view method, std::string_view pattern) {
    rows_.push_back({method, split_path(pattern)});
}

PathMatch PathMatcher::match(std::string_view method, std::string_view raw_path) const {
    PathMatch result;
    if (raw_path.empty() || raw_path.front() != '/' || raw_path.size() > kMaxPathBytes)
        return result;
    std::vector<std::string> decoded;
    for (auto segment : split_path(raw_path)) {
        auto d = http::percent_decode(segment, false);
        if (!d) {
            result.outcome = PathMatch::Outcome::malformed;
            return result;
        }
        decoded.push_back(std::move(*d));
    }
    for (size_t i = 0; i < rows_.size(); ++i) {
        PathParams params;
        if (!segments_match(rows_[i].segments, decoded, params)) continue;
        if (rows_[i].method == method) {
            result.outcome = PathMatch::Outcome::found;
            result.row = i;
            result.params = std::move(params);
            result.allowed_methods.clear();
            return result;
        }
        const std::string m(rows_[i].method);
        if (std::find(result.allowed_methods.begin(), result.allowed_methods.end(), m) ==
            result.allowed_methods.end())
            result.allowed_methods.push_back(m);
    }
    result.outcome = result.allowed_methods.empty() ? PathMatch::Outcome::not_found
                                                    : PathMatch::Outcome::method_not_allowed;
    return result;
}

Router::Router(std::span<const Route> routes) : routes_(routes) {
    for (const auto& route : routes) matcher_.add(route.method, route.pattern);
}

RouteMatch Router::match(std::string_view method, std::string_view raw_path) const {
    PathMatch found = matcher_.match(method, raw_path);
    RouteMatch result;
    result.outcome = found.outcome;
    if (found.outcome == PathMatch::Outcome::found) result.route = &routes_[found.row];
    result.params = std::move(found.params);
    result.allowed_methods = std::move(found.allowed_methods);
    return result;
}

}  // namespace squawk::api
