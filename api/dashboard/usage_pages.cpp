// Usage and billing of the session's workspace: requests and credits over a period, day by day as
// bar charts drawn here as SVG (with a table of the same figures), and the wallet overview, read
// through the same BillingService and JSON as GET /v1/me/usage and /v1/me/billing.
#include "api/dashboard/page.hpp"
#include "api/render/billing_json.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/core/config/config.hpp"
#include "common/domain/billing/billing_service.hpp"

#include <algorithm>
#include <charconv>
#include <functional>
#include <vector>

namespace squawk::api::dashboard {
namespace {

constexpr std::string_view kDefaultPeriod = "30d";

// The chart's drawing, in the SVG's own units; CSS scales it to the page's width.
constexpr double kWidth = 720;
constexpr double kHeight = 220;
constexpr double kLeft = 64;  // room for the scale's labels
constexpr double kRight = 8;
constexpr double kTop = 12;
constexpr double kBottom = 28;  // room for the first and last day

std::string_view period_label(std::string_view period) {
    if (period == "today") return "Today";
    if (period == "7d") return "7 days";
    if (period == "30d") return "30 days";
    if (period == "90d") return "90 days";
    return "All time";
}

std::string number(double value) {
    char text[32];
    const auto [end, ec] =
        std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, 1);
    return ec == std::errc() ? std::string(text, end) : std::string("0");
}

std::string day_text(std::chrono::sys_days day) {
    return time::format_iso8601(time::TimePoint(day)).substr(0, 10);
}

// "2026-11-22 10:00", UTC.
std::string minute_text(time::TimePoint t) {
    std::string text = time::format_iso8601(t).substr(0, 16);
    text[10] = ' ';
    return text;
}

struct Series {
    std::string_view id;
    std::string_view title;
    std::function<long long(const billing::UsageDay&)> value;
    std::function<std::string(long long)> format;
};

// One bar a day, drawn from the zero line up (or down, for a day whose refunds exceed its
// spending); the zero line sits where the values' range puts it.
nlohmann::json chart(const Series& series, const billing::DailyUsage& usage,
                     std::string_view period) {
    long long low = 0;
    long long high = 0;
    long long total = 0;
    const billing::UsageDay* busiest = nullptr;
    for (const auto& d : usage.days) {
        const long long v = series.value(d);
        total += v;
        low = std::min(low, v);
        high = std::max(high, v);
        if (v > 0 && (!busiest || v > series.value(*busiest))) busiest = &d;
    }
    // With nothing to draw the zero line sits at the bottom, as under any spending.
    const long long top = high == 0 && low == 0 ? 1 : high;
    const double range = static_cast<double>(top - low);
    const double plot_width = kWidth - kLeft - kRight;
    const double plot_height = kHeight - kTop - kBottom;
    const auto y_of = [&](long long v) {
        return kTop + plot_height * static_cast<double>(top - v) / range;
    };
    const double slot = plot_width / static_cast<double>(std::max<size_t>(usage.days.size(), 1));
    const double gap = slot >= 4 ? slot * 0.2 : 0;
    const double zero = y_of(0);
    nlohmann::json bars = nlohmann::json::array();
    for (size_t i = 0; i < usage.days.size(); ++i) {
        const long long v = series.value(usage.days[i]);
        if (v == 0) continue;
        const double y = y_of(v);
        bars.push_back({{"x", number(kLeft + slot * static_cast<double>(i) + gap / 2)},
                        {"y", number(std::min(y, zero))},
                        {"width", number(slot - gap)},
                        {"height", number(std::abs(zero - y))},
                        {"label", day_text(usage.days[i].day) + ": " + series.format(v)}});
    }
    std::string summary = std::string(series.title) + " per day (UTC), " +
                          std::string(period_label(period)) + ": " + series.format(total) +
                          " in total";
    summary += busiest ? ", the most on " + day_text(busiest->day) + " (" +
                             series.format(series.value(*busiest)) + ")."
                       : ".";
    nlohmann::json scale = nlohmann::json::array();
    std::vector<long long> marks{0};
    if (high > 0) marks.push_back(high);
    if (low < 0) marks.push_back(low);
    for (const long long v : marks)
        scale.push_back({{"y", number(y_of(v) + 4)}, {"label", series.format(v)}});
    return {{"id", series.id},
            {"title", series.title},
            {"summary", summary},
            {"width", number(kWidth)},
            {"height", number(kHeight)},
            {"left", number(kLeft)},
            {"left_label", number(kLeft - 6)},
            {"right", number(kWidth - kRight)},
            {"zero", number(zero)},
            {"day_label_y", number(kHeight - 8)},
            {"first_day", usage.days.empty() ? "" : day_text(usage.days.front().day)},
            {"last_day", usage.days.empty() ? "" : day_text(usage.days.back().day)},
            {"scale", std::move(scale)},
            {"bars", std::move(bars)}};
}

nlohmann::json period_links(std::string_view chosen) {
    nlohmann::json links = nlohmann::json::array();
    for (const auto p : billing::kUsagePeriods)
        links.push_back({{"href", "/dashboard/usage?period=" + std::string(p)},
                         {"label", period_label(p)},
                         {"current", p == chosen}});
    return links;
}

// The overview as GET /v1/me/billing answers it, its prices as a list for the table.
nlohmann::json billing_overview(billing::BillingService& service, long long workspace_id) {
    const auto o = service.overview(workspace_id);
    nlohmann::json overview = render::billing_json(o);
    overview["cycle"]["monthly_reset_at"] = minute_text(o.monthly_reset_at);
    nlohmann::json prices = nlohmann::json::array();
    for (const auto& [operation, price] : overview["prices"].items())
        prices.push_back(
            {{"operation", operation}, {"price", price["price"]}, {"per", price["per"]}});
    overview["price_list"] = std::move(prices);
    overview["has_prices"] = !overview["price_list"].empty();
    return overview;
}

Reply show_usage(Visit& visit) {
    Validator query(visit.query);
    const auto chosen = query.optional_enum("period", billing::kUsagePeriods);
    // A period the page does not offer is named and refused, with the ones it does offer.
    if (!query.problems().empty())
        return html_page(
            visit, "usage", "Usage & billing",
            {{"periods", period_links("")},
             {"errors",
              nlohmann::json::array({"The period " + query.problems().begin()->second + "."})}},
            422);
    const std::string period = chosen.value_or(std::string(kDefaultPeriod));
    billing::BillingService service(visit.services.mysql, visit.services.config.billing);
    const auto usage = service.daily_usage(visit.workspace_id(), period);

    const auto credits = [](long long units) { return workspace::format_credits(units); };
    const auto requests = [](long long n) { return std::to_string(n); };
    nlohmann::json days = nlohmann::json::array();
    for (const auto& d : usage.days)
        days.push_back({{"day", day_text(d.day)},
                        {"requests", d.requests},
                        {"credits", credits(d.units_used)}});
    nlohmann::json charts = nlohmann::json::array(
        {chart({"requests-chart", "Requests", [](const auto& d) { return d.requests; }, requests},
               usage, period),
         chart(
             {"credits-chart", "Credits used", [](const auto& d) { return d.units_used; }, credits},
             usage, period)});
    return html_page(visit, "usage", "Usage & billing",
                     {{"periods", period_links(period)},
                      {"period_label", period_label(period)},
                      {"usage",
                       {{"period", period},
                        {"from", usage.total.from ? minute_text(*usage.total.from)
                                                  : std::string("the first request")},
                        {"to", minute_text(usage.total.to)},
                        {"total_requests", usage.total.requests},
                        {"total_credits_used", credits(usage.total.units_used)}}},
                      {"charts", std::move(charts)},
                      {"days", std::move(days)},
                      {"billing", billing_overview(service, visit.workspace_id())}});
}

const Page kUsagePages[] = {
    {"GET", "/dashboard/usage", Gate::workspace_member, show_usage},
};

}  // namespace

std::span<const Page> usage_pages() {
    return kUsagePages;
}

}  // namespace squawk::api::dashboard
