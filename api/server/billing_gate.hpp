// Billable calls (spec 1, issue #21): each operation has a price per unit (billing.prices). The
// handler that accepts a job reserves price x an upper bound of the units it will make, in the
// transaction that writes the job, or the call is refused with 402 INSUFFICIENT_BALANCE; the job
// settles it when it completes. Test keys and free operations reserve nothing.
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/services.hpp"
#include "common/domain/billing/wallet.hpp"

#include <optional>

namespace squawk::api {

// What accepting the call's job reserves for `quantity` units of the route's operation from the
// caller's own wallet, or nothing when the call is not paid for.
std::optional<billing::Reservation> reservation_for(const RequestContext& context,
                                                    const Services& services, long long quantity);

// The usage object of the answer: what was reserved (`reserved_units`, none when unpaid) and the
// caller's balance after it.
nlohmann::json usage_json(const RequestContext& context, Services& services,
                          const std::optional<long long>& reserved_units);

}  // namespace squawk::api
