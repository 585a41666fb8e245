#include "common/domain/billing/billing_settings.hpp"

#include "common/core/config/section_schema.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace squawk::config {
namespace {

// A credit amount: a non-negative number with at most 4 fraction digits, kept as units.
long long credit_units(const Scalar& value, const std::string& path) {
    const double units = as_real(value, path, 0, 1e9) * 10000;
    if (std::fabs(units - std::round(units)) > 1e-6)
        bad_value(path, "must have at most 4 fraction digits");
    return std::llround(units);
}

Row<BillingSettings> currency() {
    return {"currency", [](BillingSettings& b, const Scalar& value, const std::string& path) {
                const auto* v = std::get_if<std::string>(&value);
                if (!v || v->size() != 3 || !std::all_of(v->begin(), v->end(), [](char ch) {
                        return ch >= 'A' && ch <= 'Z';
                    }))
                    bad_value(path, "expected a three-letter upper-case code");
                b.currency = *v;
            }};
}

}  // namespace

std::span<const std::string_view> billable_operations() {
    static constexpr std::string_view operations[] = {
        "text_to_speech", "speech_to_text", "article", "image", "presentation", "video", "short"};
    return operations;
}

std::string_view price_unit(std::string_view operation) {
    static constexpr std::pair<std::string_view, std::string_view> units[] = {
        {"article", "item"},          {"image", "item"},
        {"presentation", "slide"},    {"video", "second"},
        {"text_to_speech", "second"}, {"speech_to_text", "second"},
        {"short", "second"}};
    for (const auto& [name, unit] : units)
        if (name == operation) return unit;
    return "item";
}

SectionSchema<BillingSettings> billing_schema() {
    using S = BillingSettings;
    SectionSchema<S> schema{{
                                currency(),
                                {"monthly_allowance",
                                 [](S& b, const Scalar& v, const std::string& path) {
                                     b.monthly_allowance_units = credit_units(v, path);
                                 }},
                            },
                            [](S& billing, const std::string&) {
                                for (const auto& operation : billable_operations())
                                    billing.price_units.try_emplace(std::string(operation), 0);
                            }};
    for (const auto& operation : billable_operations()) {
        const std::string name(operation);
        schema.rows.push_back(
            {"prices." + name, [name](S& b, const Scalar& v, const std::string& path) {
                 b.price_units[name] = credit_units(v, path);
             }});
    }
    return schema;
}

}  // namespace squawk::config
