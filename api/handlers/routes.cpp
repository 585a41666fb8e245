#include "api/handlers/routes.hpp"

#include "api/handlers/route_families.hpp"

#include <utility>
#include <vector>

namespace squawk::api {

std::span<const Route> route_table() {
    static const std::vector<Route> table = [] {
        std::vector<Route> all;
        const auto add = [&all](std::span<const Route> family) {
            all.insert(all.end(), family.begin(), family.end());
        };
        constexpr auto kFamilies = static_cast<size_t>(handlers::Family::count);
        [&]<size_t... I>(std::index_sequence<I...>) {
            (add(handlers::routes<static_cast<handlers::Family>(I)>()), ...);
        }
        (std::make_index_sequence<kFamilies>{});
        return all;
    }();
    return table;
}

}  // namespace squawk::api
