#include "common/extensions/platforms/facebook/page_service.hpp"

#include "common/core/error/api_error.hpp"
#include "common/core/net/target_url.hpp"
#include "common/domain/social/account_credentials.hpp"
#include "common/domain/social/platform_api.hpp"
#include "common/domain/social/platform_failure_error.hpp"
#include "common/extensions/platforms/facebook/factory.hpp"
#include "common/extensions/platforms/facebook/page_client.hpp"
#include "common/extensions/platforms/facebook/page_image.hpp"

#include <algorithm>
#include <cctype>

namespace squawk::social::facebook {
namespace {

using nlohmann::json;

[[noreturn]] void page_not_found() {
    throw ApiError(ErrorCode::NotFound, "No connected Facebook Page account with this id.");
}

// A connected facebook account of the workspace; anything else is not found, so that another
// workspace's accounts stay invisible.
Account page_account(db::MysqlPool& mysql, long long workspace_id, const std::string& id) {
    auto account = mysql.run([&](db::Session& s) {
        return AccountRepository::find(s, workspace_id, AccountView::live, id);
    });
    if (!account || account->platform != kFactory.id || account->status != AccountStatus::connected)
        page_not_found();
    return *account;
}

[[noreturn]] void image_refused(const std::string& reason) {
    throw ApiError(ErrorCode::ValidationError, "The image at url " + reason + ".",
                   {{"field", "url"}, {"reason", reason}});
}

bool is_phone(const std::string& text) {
    const auto digits = std::count_if(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
    });
    return digits >= 5 && std::all_of(text.begin(), text.end(), [](char c) {
               return std::isdigit(static_cast<unsigned char>(c)) || c == '+' || c == ' ' ||
                      c == '-' || c == '(' || c == ')' || c == '.';
           });
}

bool is_email(const std::string& text) {
    const auto at = text.find('@');
    return at != std::string::npos && at > 0 && text.find('@', at + 1) == std::string::npos &&
           text.find('.', at) != std::string::npos && text.back() != '.' &&
           std::none_of(text.begin(), text.end(),
                        [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

// The form fields Facebook takes for `change`, or 422 naming each malformed one.
http::FormFields change_fields(const PageSettingsChange& change) {
    json problems = json::object();
    http::FormFields fields;
    if (change.about) fields.emplace_back("about", *change.about);
    if (change.description) fields.emplace_back("description", *change.description);
    if (change.website) {
        if (!change.website->starts_with("https://") && !change.website->starts_with("http://"))
            problems["website"] = "must be an http or https URL";
        fields.emplace_back("website", *change.website);
    }
    if (change.phone) {
        if (!is_phone(*change.phone))
            problems["phone"] = "must be a phone number (digits, spaces, + - ( ) .)";
        fields.emplace_back("phone", *change.phone);
    }
    if (change.emails) {
        for (const auto& email : *change.emails)
            if (!is_email(email)) problems["emails"] = "'" + email + "' is not an email address";
        fields.emplace_back("emails", json(*change.emails).dump());
    }
    if (!problems.empty()) throw validation_error(problems);
    if (fields.empty())
        throw validation_error(
            {{"body", "give at least one of about, description, website, phone, emails"}});
    return fields;
}

// The image is fetched from the address the target check approves, as every media URL is.
void check_image(const config::Config& config, http::Client& http, const std::string& url,
                 bool cover) {
    const bool allow_private = config.security.allow_private_targets;
    const TargetCheck check = [allow_private](const std::string& u) {
        return net::check_target(u, allow_private);
    };
    const std::chrono::milliseconds timeout(config.social.media_probe_timeout_ms);
    if (auto problem = page_image_problem(http, url, check, timeout, cover))
        image_refused(*problem);
}

PlatformApi graph_api(const config::Config& config, http::Client& http) {
    const auto configured = config.social.platforms.find(std::string(kFactory.settings_section));
    if (configured != config.social.platforms.end()) return PlatformApi(configured->second, http);
    config::PlatformSettings defaults;
    defaults.api_base_url = std::string(kFactory.default_base_url);
    return PlatformApi(defaults, http);
}

json settings_json(const Account& account, const json& page) {
    json out = {{"account_id", account.public_id}, {"page_id", account.identity.external_id}};
    out["name"] = page.value("name", account.identity.display_name);
    for (const char* field : kPageSettingFields) out[field] = page.value(field, json());
    if (!out["emails"].is_array()) out["emails"] = json::array();
    const json cover = page.value("cover", json());
    out["cover"] = cover.is_object() ? json{{"source", cover.value("source", json())},
                                            {"offset_y", cover.value("offset_y", json())}}
                                     : json();
    return out;
}

}  // namespace

nlohmann::json PageService::settings(long long workspace_id, const std::string& account_id) {
    const auto account = page_account(mysql_, workspace_id, account_id);
    const auto page = target_of(account, config_.security);
    PlatformApi api = graph_api(config_, http_);
    auto answer = PageClient(api, page).settings();
    if (answer.failure) raise_platform_failure(kFactory, *answer.failure);
    return settings_json(account, answer.body);
}

nlohmann::json PageService::update_settings(long long workspace_id, const std::string& account_id,
                                            const PageSettingsChange& change) {
    const auto account = page_account(mysql_, workspace_id, account_id);
    const auto fields = change_fields(change);
    const auto page = target_of(account, config_.security);
    PlatformApi api = graph_api(config_, http_);
    auto answer = PageClient(api, page).update(fields);
    if (answer.failure) raise_platform_failure(kFactory, *answer.failure);
    return settings(workspace_id, account_id);
}

nlohmann::json PageService::set_picture(long long workspace_id, const std::string& account_id,
                                        const std::string& url) {
    const auto account = page_account(mysql_, workspace_id, account_id);
    check_image(config_, http_, url, false);
    const auto page = target_of(account, config_.security);
    PlatformApi api = graph_api(config_, http_);
    auto answer = PageClient(api, page).set_picture(url);
    if (answer.failure) raise_platform_failure(kFactory, *answer.failure);
    return {{"account_id", account.public_id}, {"picture", url}, {"updated", true}};
}

nlohmann::json PageService::set_cover(long long workspace_id, const std::string& account_id,
                                      const std::string& url, int offset_y) {
    const auto account = page_account(mysql_, workspace_id, account_id);
    check_image(config_, http_, url, true);
    const auto page = target_of(account, config_.security);
    PlatformApi api = graph_api(config_, http_);
    auto answer = PageClient(api, page).set_cover(url, offset_y);
    if (answer.failure) raise_platform_failure(kFactory, *answer.failure);
    return {{"account_id", account.public_id},
            {"cover", url},
            {"offset_y", offset_y},
            {"updated", true}};
}

ReelUsage PageService::reel_limit(long long workspace_id, const std::string& account_id) {
    const auto account = page_account(mysql_, workspace_id, account_id);
    return mysql_.run([&](db::Session& s) { return reel_usage(s, account.id, time::now()); });
}

}  // namespace squawk::social::facebook
