// Offset pagination of spec 2.2: `page` from 1, `per_page` 1 to 100 (default 20), and the
// `pagination` object of list responses.
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/validation.hpp"

#include <nlohmann/json.hpp>

namespace squawk::api {

inline constexpr int kDefaultPerPage = 20;
inline constexpr int kMaxPerPage = 100;
// Past this page the offset would outgrow any table we keep; it also keeps the arithmetic exact.
inline constexpr int kMaxPage = 1000000;

struct PageRequest {
    int page = 1;
    int per_page = kDefaultPerPage;
    long long offset() const { return static_cast<long long>(page - 1) * per_page; }
};

// Reads page and per_page through the validator, so bad values join its 422.
PageRequest read_page(Validator& query);

// {page, per_page, total, total_pages}
nlohmann::json pagination_json(const PageRequest& request, long long total);

// A list answer: `found`'s items (a service's page: items and total) each rendered by `render`.
template <class Found, class Render>
Reply page_reply(const PageRequest& request, const Found& found, Render render) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& item : found.items) items.push_back(render(item));
    return Reply::page(std::move(items), pagination_json(request, found.total));
}

}  // namespace squawk::api
