#include "api/server/pagination.hpp"

namespace squawk::api {

PageRequest read_page(Validator& query) {
    PageRequest r;
    if (auto page = query.optional_integer("page", 1, kMaxPage)) r.page = static_cast<int>(*page);
    if (auto per_page = query.optional_integer("per_page", 1, kMaxPerPage))
        r.per_page = static_cast<int>(*per_page);
    return r;
}

nlohmann::json pagination_json(const PageRequest& request, long long total) {
    const long long pages = (total + request.per_page - 1) / request.per_page;
    return {{"page", request.page},
            {"per_page", request.per_page},
            {"total", total},
            {"total_pages", pages}};
}

}  // namespace squawk::api
