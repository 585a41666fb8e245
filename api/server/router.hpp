// Matches a request's method and raw path against the route table: decoded, bounded path
// parameters on a match; otherwise whether the path is unknown (404) or the method is (405).
#pragma once

#include "api/server/route.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::api {

inline constexpr size_t kMaxPathBytes = 2048;
inline constexpr size_t kMaxPathParamBytes = 128;

// Which of a table's rows (a method and a pattern such as "/v1/jobs/{job_id}") a request is
// for, shared by the /v1 route table and the dashboard's pages.
struct PathMatch {
    enum class Outcome { found, not_found, method_not_allowed, malformed };
    Outcome outcome = Outcome::not_found;
    size_t row = 0;  // for found: the index of the row, in the order they were added
    PathParams params;
    std::vector<std::string> allowed_methods;  // for method_not_allowed, in table order
};

class PathMatcher {
  public:
    // `pattern` must outlive the matcher (the tables are static).
    void add(std::string_view method, std::string_view pattern);
    PathMatch match(std::string_view method, std::string_view raw_path) const;

  private:
    struct Compiled {
        std::string_view method;
        std::vector<std::string_view> segments;  // "{name}" marks a parameter
    };
    std::vector<Compiled> rows_;
};

struct RouteMatch {
    using Outcome = PathMatch::Outcome;
    Outcome outcome = Outcome::not_found;
    const Route* route = nullptr;
    PathParams params;
    std::vector<std::string> allowed_methods;
};

class Router {
  public:
    explicit Router(std::span<const Route> routes);

    RouteMatch match(std::string_view method, std::string_view raw_path) const;

  private:
    std::span<const Route> routes_;
    PathMatcher matcher_;
};

}  // namespace squawk::api
