// The dashboard's home: where the user is signed in and the pages they can open.
#include "api/dashboard/page.hpp"

namespace squawk::api::dashboard {
namespace {

Reply home(Visit& visit) {
    return html_page(visit, "home", "Dashboard", nlohmann::json::object());
}

const Page kHomePages[] = {
    {"GET", "/dashboard/", Gate::signed_in, home},
};

}  // namespace

std::span<const Page> home_pages() {
    return kHomePages;
}

}  // namespace squawk::api::dashboard
