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

struct RouteMatch {
    enum class Outcome { found, not_found, method_not_allowed, malformed };
    Outcome outcome = Outcome::not_found;
    const Route* route = nullptr;
    PathParams params;
    std::vector<std::string> allowed_methods;  // for method_not_allowed, in table order
};

class Router {
  public:
    explicit Router(std::span<const Route> routes);

    RouteMatch match(std::string_view method, std::string_view raw_path) const;

  private:
    struct Compiled {
        const Route* route;
        std::vector<std::string_view> segments;  // "{name}" marks a parameter
    };
    std::vector<Compiled> routes_;
};

}  // namespace squawk::api
