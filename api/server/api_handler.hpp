// The one Pistache handler of squawk-api: routes, authenticates, parses and answers every
// request through the route table, so each rule (envelope, errors, keep-alive, access log)
// is written once.
#pragma once

#include "api/server/router.hpp"
#include "api/server/services.hpp"

#include <pistache/http.h>

#include <memory>

namespace squawk::api {

class ApiHandler : public Pistache::Http::Handler {
  public:
    HTTP_PROTOTYPE(ApiHandler)

    ApiHandler(Services& services, std::shared_ptr<const Router> router)
        : services_(&services), router_(std::move(router)) {}

    void onRequest(const Pistache::Http::Request& request,
                   Pistache::Http::ResponseWriter response) override;

  private:
    Services* services_;
    std::shared_ptr<const Router> router_;
};

}  // namespace squawk::api
