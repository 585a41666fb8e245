// Billable calls (spec 1): the price of the route's operation is debited from the caller's
// wallet in one transaction before the handler runs, or the call is refused with 402
// INSUFFICIENT_BALANCE. If the handler then fails, the charge is reversed; test keys pay nothing.
#pragma once

#include "api/server/route.hpp"
#include "api/server/services.hpp"

namespace squawk::api {

// Sets context.charge_ledger_id when something was charged; returns the usage object.
nlohmann::json charge_for_call(const Route& route, RequestContext& context, Services& services);

// Gives the charge back after the handler failed (nothing to do when nothing was charged).
void reverse_charge(const RequestContext& context, Services& services);

}  // namespace squawk::api
