// The posts calendar (issue 23): the workspace's scheduled and published posts by week or month,
// in UTC, filtered by connected account, and one post with its targets and recycling chain, which
// writers may cancel while it is scheduled. Read and changed through the repositories, services
// and tenancy of /v1/social/posts.
#include "api/dashboard/page.hpp"
#include "api/dashboard/shown.hpp"
#include "api/server/services.hpp"
#include "common/core/error/api_error.hpp"
#include "common/domain/social/account_repository.hpp"
#include "common/domain/social/post_change_service.hpp"
#include "common/domain/social/post_repository.hpp"
#include "common/domain/social/post_service.hpp"
#include "common/domain/social/post_validation.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <tuple>

namespace squawk::api::dashboard {
namespace {

using std::chrono::days;
using std::chrono::floor;
using std::chrono::minutes;
using std::chrono::sys_days;
using std::chrono::year_month_day;

// A month's grid is at most six weeks; a period this full asks for the account filter.
constexpr int kMaxPostsShown = 500;
constexpr int kAccountsPerRead = 100;
constexpr size_t kSnippetCodePoints = 80;
// MySQL's DATETIME range, less the neighbouring periods the links point to.
constexpr std::chrono::year kFirstYear{1970};
constexpr std::chrono::year kLastYear{9998};

constexpr std::array<const char*, 7> kWeekdays = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
constexpr std::array<const char*, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
constexpr std::array<const char*, 12> kMonthNames = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};

enum class View { week, month };

std::string_view view_name(View view) {
    return view == View::week ? "week" : "month";
}

// The days a page shows: [first, end), whole weeks from Monday, and the days its links go to.
struct Period {
    View view = View::week;
    sys_days asked;
    sys_days first;
    sys_days end;
    sys_days previous;
    sys_days next;
};

sys_days monday_of(sys_days day) {
    return day - (std::chrono::weekday{day} - std::chrono::Monday);
}

Period period_of(View view, sys_days asked) {
    Period p{view, asked, {}, {}, {}, {}};
    if (view == View::week) {
        p.first = monday_of(asked);
        p.end = p.first + days{7};
        p.previous = p.first - days{7};
        p.next = p.end;
        return p;
    }
    const year_month_day ymd{asked};
    const auto month = ymd.year() / ymd.month();
    p.first = monday_of(sys_days{month / 1});
    p.end = monday_of(sys_days{month / std::chrono::last}) + days{7};
    p.previous = sys_days{(month - std::chrono::months{1}) / 1};
    p.next = sys_days{(month + std::chrono::months{1}) / 1};
    return p;
}

bool in_range(sys_days day) {
    const auto y = year_month_day{day}.year();
    return y >= kFirstYear && y <= kLastYear;
}

std::string iso_date(sys_days day) {
    return time::format_iso8601(time::TimePoint{day}).substr(0, 10);
}

// "Mon 23 Nov": a day as the calendar's headings show it.
std::string day_label(sys_days day) {
    const year_month_day ymd{day};
    return std::string(kWeekdays[std::chrono::weekday{day}.iso_encoding() - 1]) + " " +
           std::to_string(unsigned(ymd.day())) + " " + kMonths[unsigned(ymd.month()) - 1];
}

std::string long_date(sys_days day) {
    const year_month_day ymd{day};
    return std::to_string(unsigned(ymd.day())) + " " + kMonthNames[unsigned(ymd.month()) - 1] +
           " " + std::to_string(int(ymd.year()));
}

// "2026-11-23 14:30 UTC"
std::string utc_minute(time::TimePoint t) {
    const std::string iso = time::format_iso8601(t);
    return iso.substr(0, 10) + " " + iso.substr(11, 5) + " UTC";
}

nlohmann::json optional_utc(const std::optional<time::TimePoint>& t) {
    return t ? nlohmann::json(utc_minute(*t)) : nlohmann::json(nullptr);
}

// The first code points of a post's text, never cutting one in half.
std::string snippet(const std::string& content) {
    size_t code_points = 0;
    for (size_t i = 0; i < content.size(); ++i) {
        if ((static_cast<unsigned char>(content[i]) & 0xC0) == 0x80) continue;
        if (code_points++ == kSnippetCodePoints) return content.substr(0, i) + "…";
    }
    return content;
}

// Links only to web addresses: a platform's URL is not ours to trust with another scheme.
nlohmann::json web_link(const std::optional<std::string>& url) {
    if (!url || !social::is_web_url(*url, false)) return nullptr;
    return *url;
}

std::optional<sys_days> read_date(const std::string& text) {
    if (text.size() != 10) return std::nullopt;
    const auto t = time::parse_iso8601(text + "T00:00:00Z");
    if (!t) return std::nullopt;
    const auto day = floor<days>(*t);
    if (!in_range(day)) return std::nullopt;
    return sys_days{day};
}

// Every account the workspace has connected, sandbox ones included: the dashboard shows its
// people the whole workspace, as its test keys see it.
std::vector<social::Account> connected_accounts(Visit& visit) {
    return visit.services.mysql.run([&](db::Session& s) {
        std::vector<social::Account> all;
        for (long long offset = 0;; offset += kAccountsPerRead) {
            auto page = social::AccountRepository::connected(
                s, visit.workspace_id(), social::AccountView::test, "", offset, kAccountsPerRead);
            const auto read = page.size();
            for (auto& a : page) all.push_back(std::move(a));
            if (read < static_cast<size_t>(kAccountsPerRead)) return all;
        }
    });
}

std::string account_label(const social::Account& a) {
    return a.identity.display_name + " (" + a.platform + (a.sandbox ? ", sandbox)" : ")");
}

// One line of a day: a post's targets due in the same minute (of the filter's account).
struct Entry {
    long long post_id = 0;
    time::TimePoint at;
    std::string text;
    std::vector<std::string> platforms;
    std::vector<std::string> statuses;
};

void add_unique(std::vector<std::string>& list, std::string value) {
    if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(std::move(value));
}

std::map<sys_days, std::vector<Entry>> entries_by_day(const std::vector<social::Post>& posts,
                                                      const Period& period,
                                                      std::optional<long long> account_id) {
    std::map<sys_days, std::vector<Entry>> by_day;
    for (const auto& post : posts)
        for (const auto& t : post.targets) {
            const sys_days day{floor<days>(t.scheduled_time)};
            if (day < period.first || day >= period.end) continue;
            if (account_id && t.account_id != *account_id) continue;
            const auto at = floor<minutes>(t.scheduled_time);
            auto& entries = by_day[day];
            auto found = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) {
                return e.post_id == post.id && e.at == at;
            });
            if (found == entries.end())
                found = entries.insert(entries.end(),
                                       Entry{post.id, at, snippet(post.content), {}, {}});
            add_unique(found->platforms, t.platform);
            add_unique(found->statuses, std::string(name_of(t.status)));
        }
    for (auto& [day, entries] : by_day)
        std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
            return std::tie(a.at, a.post_id) < std::tie(b.at, b.post_id);
        });
    return by_day;
}

nlohmann::json day_json(sys_days day, const Period& period, sys_days today,
                        const std::map<sys_days, std::vector<Entry>>& by_day) {
    nlohmann::json entries = nlohmann::json::array();
    if (const auto found = by_day.find(day); found != by_day.end())
        for (const auto& e : found->second) {
            const std::string iso = time::format_iso8601(e.at);
            entries.push_back({{"post_id", e.post_id},
                               {"datetime", iso.substr(0, 16) + "Z"},
                               {"time", iso.substr(11, 5)},
                               {"text", e.text},
                               {"platforms", joined(e.platforms)},
                               {"statuses", joined(e.statuses)}});
        }
    const bool outside = period.view == View::month &&
                         year_month_day{day}.month() != year_month_day{period.asked}.month();
    return {{"label", day_label(day)},
            {"today", day == today},
            {"outside", outside},
            {"empty", entries.empty()},
            {"entries", std::move(entries)}};
}

std::string calendar_href(View view, sys_days day, const std::string& account) {
    http::FormFields query = {{"view", std::string(view_name(view))}, {"date", iso_date(day)}};
    if (!account.empty()) query.emplace_back("account_id", account);
    return "/dashboard/posts?" + http::form_encode(query);
}

nlohmann::json account_options(const std::vector<social::Account>& accounts,
                               const std::string& chosen) {
    nlohmann::json options = nlohmann::json::array();
    for (const auto& a : accounts)
        options.push_back({{"id", a.public_id},
                           {"label", account_label(a)},
                           {"selected", a.public_id == chosen}});
    return options;
}

nlohmann::json view_options(View chosen) {
    nlohmann::json options = nlohmann::json::array();
    for (const View v : {View::week, View::month})
        options.push_back({{"value", view_name(v)},
                           {"label", v == View::week ? "Week" : "Month"},
                           {"selected", v == chosen}});
    return options;
}

Reply calendar(Visit& visit) {
    const sys_days today{floor<days>(time::now())};
    const std::string view_text = visit.query_value("view");
    const std::string date_text = visit.query_value("date");
    const std::string account = visit.query_value("account_id");
    nlohmann::json errors = nlohmann::json::array();

    const View view = view_text == "month" ? View::month : View::week;
    if (!view_text.empty() && view_text != "week" && view_text != "month")
        errors.push_back("The view is week or month.");
    sys_days asked = today;
    if (!date_text.empty()) {
        if (const auto day = read_date(date_text))
            asked = *day;
        else
            errors.push_back("The date is a day from 1970 to 9998 as YYYY-MM-DD, like " +
                             iso_date(today) + ".");
    }
    const auto accounts = connected_accounts(visit);
    std::optional<long long> account_id;
    if (!account.empty()) {
        for (const auto& a : accounts)
            if (a.public_id == account) account_id = a.id;
        if (!account_id)
            errors.push_back("This workspace has no connected account " + account + ".");
    }

    nlohmann::json data = {{"view_options", view_options(view)},
                           {"date", date_text.empty() ? iso_date(asked) : date_text},
                           {"accounts", account_options(accounts, account)},
                           {"errors", errors}};
    if (!errors.empty()) return html_page(visit, "posts", "Posts", std::move(data), 422);

    const Period period = period_of(view, asked);
    auto posts = visit.services.mysql.run([&](db::Session& s) {
        return social::PostRepository::in_period(
            s, visit.workspace_id(), time::TimePoint{period.first}, time::TimePoint{period.end},
            account_id, kMaxPostsShown + 1);
    });
    const bool truncated = posts.size() > static_cast<size_t>(kMaxPostsShown);
    if (truncated) posts.resize(kMaxPostsShown);
    const auto by_day = entries_by_day(posts, period, account_id);

    nlohmann::json weeks = nlohmann::json::array();
    for (sys_days monday = period.first; monday < period.end; monday += days{7}) {
        nlohmann::json week_days = nlohmann::json::array();
        for (int i = 0; i < 7; ++i)
            week_days.push_back(day_json(monday + days{i}, period, today, by_day));
        weeks.push_back({{"days", std::move(week_days)}});
    }
    const year_month_day asked_ymd{asked};
    const std::string caption =
        view == View::week
            ? "Week of " + long_date(period.first) + " to " + long_date(period.end - days{1})
            : std::string(kMonthNames[unsigned(asked_ymd.month()) - 1]) + " " +
                  std::to_string(int(asked_ymd.year()));
    nlohmann::json headings = nlohmann::json::array();
    for (int i = 0; i < 7; ++i)
        headings.push_back(view == View::week ? day_label(period.first + days{i})
                                              : std::string(kWeekdays[static_cast<size_t>(i)]));

    data["is_week"] = view == View::week;
    data["is_month"] = view == View::month;
    data["caption"] = caption;
    data["headings"] = std::move(headings);
    data["weeks"] = std::move(weeks);
    data["has_posts"] = !by_day.empty();
    data["truncated"] = truncated;
    data["max_posts"] = kMaxPostsShown;
    data["unit"] = view_name(view);
    if (in_range(period.previous))
        data["previous_href"] = calendar_href(view, period.previous, account);
    if (in_range(period.next)) data["next_href"] = calendar_href(view, period.next, account);
    data["today_href"] = calendar_href(view, today, account);
    return html_page(visit, "posts", "Posts", std::move(data));
}

nlohmann::json target_json(const social::PostTarget& t,
                           const std::map<std::string, std::string>& account_names) {
    const auto name = account_names.find(t.account_public_id);
    nlohmann::json error = nullptr;
    if (t.error.is_object())
        error = {{"code", t.error.value("code", "")}, {"message", t.error.value("message", "")}};
    return {
        {"account", name != account_names.end() ? name->second : "Account " + t.account_public_id},
        {"account_id", t.account_public_id},
        {"platform", t.platform},
        {"status", std::string(name_of(t.status))},
        {"stage",
         t.publish_stage ? nlohmann::json(std::string(name_of(*t.publish_stage))) : nullptr},
        {"scheduled", utc_minute(t.scheduled_time)},
        {"published", optional_utc(t.published_at)},
        {"edited", optional_utc(t.edited_at)},
        {"unpublished", optional_utc(t.unpublished_at)},
        {"external_id", t.external_id ? nlohmann::json(*t.external_id) : nullptr},
        {"url", web_link(t.url)},
        {"error", std::move(error)}};
}

// The chain a recycled post belongs to: the first post and every copy written after it.
nlohmann::json chain_json(const std::vector<social::Post>& chain, long long current) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& p : chain)
        items.push_back(
            {{"id", p.id},
             {"occurrence", p.recycle_count == 0 ? std::string("First post")
                                                 : "Copy " + std::to_string(p.recycle_count)},
             {"status", std::string(name_of(p.status))},
             {"scheduled", optional_utc(p.scheduled_time)},
             {"current", p.id == current}});
    return items;
}

social::PostService posts(Visit& visit) {
    return social::PostService(visit.services.mysql, visit.services.redis,
                               visit.services.post_creations);
}

long long post_id_of(const Visit& visit) {
    long long post_id = 0;
    const std::string& text = visit.param("post_id");
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), post_id);
    if (ec != std::errc() || end != text.data() + text.size() || post_id < 1)
        throw ApiError(ErrorCode::NotFound, "This workspace has no post with this id.");
    return post_id;
}

sys_days day_of(const social::Post& post) {
    return sys_days{floor<days>(post.scheduled_time.value_or(post.created_at))};
}

Reply post_detail(Visit& visit) {
    // The API's own read: another workspace's post is as unknown as no post.
    const auto post = posts(visit).get(visit.workspace_id(), post_id_of(visit));
    // A chain outlives its rule (stopping recycling clears it), so it is always looked up.
    const auto chain = visit.services.mysql.run(
        [&](db::Session& s) { return social::PostRepository::chain(s, post); });

    std::map<std::string, std::string> account_names;
    for (const auto& a : connected_accounts(visit)) account_names[a.public_id] = account_label(a);
    nlohmann::json targets = nlohmann::json::array();
    for (const auto& t : post.targets) targets.push_back(target_json(t, account_names));
    nlohmann::json media = nlohmann::json::array();
    for (const auto& url : post.media_urls)
        media.push_back({{"url", url}, {"href", web_link(url)}});
    nlohmann::json recycle = nullptr;
    if (post.recycle)
        recycle = {
            {"every", post.recycle->interval_hours == 1
                          ? std::string("hour")
                          : std::to_string(post.recycle->interval_hours) + " hours"},
            {"max_repeats",
             post.recycle->max_repeats ? nlohmann::json(*post.recycle->max_repeats) : nullptr},
            {"until", optional_utc(post.recycle->until)}};
    return html_page(visit, "post", "Post " + std::to_string(post.id),
                     {{"id", post.id},
                      {"content", post.content},
                      {"status", std::string(name_of(post.status))},
                      {"is_test", post.is_test},
                      {"link", post.link ? nlohmann::json(*post.link) : nullptr},
                      {"link_href", web_link(post.link)},
                      {"media", std::move(media)},
                      {"has_media", !post.media_urls.empty()},
                      {"scheduled", optional_utc(post.scheduled_time)},
                      {"published", optional_utc(post.published_at)},
                      {"created", utc_minute(post.created_at)},
                      {"targets", std::move(targets)},
                      {"has_targets", !post.targets.empty()},
                      {"recycle", std::move(recycle)},
                      {"chain", chain_json(chain, post.id)},
                      {"has_chain", chain.size() > 1},
                      {"cancellable", post.status == social::PostStatus::scheduled},
                      {"calendar_href", calendar_href(View::week, day_of(post), "")}});
}

// Exactly DELETE /v1/social/posts/{id}: a post published meanwhile is unpublished by a job, one
// not published yet is cancelled at once. The post's own mode stands in for the key's.
Reply cancel_post(Visit& visit) {
    const auto post = posts(visit).get(visit.workspace_id(), post_id_of(visit));
    social::PostChangeService changes(visit.services.mysql, visit.services.submitter,
                                      social::known_limits());
    if (const auto job = changes.unpublish(visit.workspace_id(), post.is_test, post.id))
        return message_page(visit, 202, "Being deleted",
                            "The post was published meanwhile: job " + job->public_id +
                                " deletes it from the platforms.");
    posts(visit).cancel(visit.workspace_id(), post.id);
    return Reply::redirect(calendar_href(View::week, day_of(post), ""));
}

const Page kPostPages[] = {
    {"GET", "/dashboard/posts", Gate::workspace_member, calendar},
    {"GET", "/dashboard/posts/{post_id}", Gate::workspace_member, post_detail},
    {"POST", "/dashboard/posts/{post_id}/cancel", Gate::workspace_writer, cancel_post},
};

}  // namespace

std::span<const Page> post_pages() {
    return kPostPages;
}

}  // namespace squawk::api::dashboard
