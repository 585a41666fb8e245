// Credits: the currency, the monthly allowance and the price of one unit of each billable
// operation. Section [billing] with [billing.prices]; the rows are in billing_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <map>
#include <span>
#include <string>
#include <string_view>

namespace squawk::config {

// Credits are configured as decimal numbers and kept as integers of 1/10,000 credit.
struct BillingSettings {
    std::string currency = "USD";
    long long monthly_allowance_units = 0;
    std::map<std::string, long long> price_units;  // one unit of each billable operation
};

// Operations a route may be billed as; each has a price `billing.prices.<name>` (0 = free).
std::span<const std::string_view> billable_operations();

// What one unit of `operation` is: "item" (an article, an image), "slide" (of a presentation),
// "second" (of video, shorts or speech made, or of audio transcribed).
std::string_view price_unit(std::string_view operation);

SectionSchema<BillingSettings> billing_schema();

}  // namespace squawk::config
