// Managing a connected Facebook Page through Squawk: its settings, picture and cover, and how
// many reels it may still publish today. The account must be a connected facebook account of the
// workspace (404 otherwise); images are checked before Facebook is asked (422 VALIDATION_ERROR
// with details.field and details.reason).
#pragma once

#include "common/core/config/config.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/http/http_client.hpp"
#include "common/extensions/platforms/facebook/reel_limit.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace squawk::social::facebook {

// The settings to change; an absent one is left as it is.
struct PageSettingsChange {
    std::optional<std::string> about;
    std::optional<std::string> description;
    std::optional<std::string> website;
    std::optional<std::string> phone;
    std::optional<std::vector<std::string>> emails;
};

class PageService {
  public:
    PageService(db::MysqlPool& mysql, const config::Config& config, http::Client& http)
        : mysql_(mysql), config_(config), http_(http) {}

    // {account_id, page_id, name, about, description, website, phone, emails, cover}.
    nlohmann::json settings(long long workspace_id, const std::string& account_id);
    // The settings after the change. Malformed values are 422 before Facebook is asked.
    nlohmann::json update_settings(long long workspace_id, const std::string& account_id,
                                   const PageSettingsChange& change);
    nlohmann::json set_picture(long long workspace_id, const std::string& account_id,
                               const std::string& url);
    nlohmann::json set_cover(long long workspace_id, const std::string& account_id,
                             const std::string& url, int offset_y);
    ReelUsage reel_limit(long long workspace_id, const std::string& account_id);

  private:
    db::MysqlPool& mysql_;
    const config::Config& config_;
    http::Client& http_;
};

}  // namespace squawk::social::facebook
