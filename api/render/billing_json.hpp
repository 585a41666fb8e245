// The API's JSON for billing (spec 2.5): the wallet overview, the balance and usage. Amounts are
// shown as credits.
#pragma once

#include "common/domain/billing/billing_service.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace squawk::api::render {

nlohmann::json billing_json(const billing::BillingOverview& o);
// currency and balance {total, purchased, monthly}.
nlohmann::json balance_json(const workspace::Balance& b);
nlohmann::json usage_json(const std::string& period, const billing::Usage& u);

}  // namespace squawk::api::render
