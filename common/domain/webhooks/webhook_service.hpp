// What the webhook routes do (spec 4.2): endpoint changes with the target and limit checks, the
// synchronous test delivery, secret rotation and replays. Raises ApiError; handlers only parse.
#pragma once

#include "common/core/config/config.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/http/http_client.hpp"
#include "common/core/time/clock.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace squawk::webhooks {

struct EndpointChange {
    std::optional<std::string> url;
    std::optional<std::vector<std::string>> events;
    std::optional<std::string> status;  // active or paused
};

class WebhookService {
  public:
    WebhookService(db::MysqlPool& mysql, const config::Config& config, http::Client& http)
        : mysql_(mysql), config_(config), http_(http) {}

    // The endpoint with its `secret`, shown only here and by rotate_secret.
    nlohmann::json create(long long workspace_id, const std::string& url,
                          const std::vector<std::string>& events);
    nlohmann::json list(long long workspace_id);
    nlohmann::json update(long long workspace_id, const std::string& id,
                          const EndpointChange& change);
    void remove(long long workspace_id, const std::string& id);
    nlohmann::json rotate_secret(long long workspace_id, const std::string& id);
    // Sends webhook.test now and reports the outcome; never retried.
    nlohmann::json test(long long workspace_id, const std::string& id);
    nlohmann::json replay(long long workspace_id, long long delivery_id);
    nlohmann::json replay_dead_letters(long long workspace_id, const std::string& id,
                                       time::TimePoint since);

  private:
    void check_url(const std::string& url) const;
    std::string seal(const std::string& secret) const;

    db::MysqlPool& mysql_;
    const config::Config& config_;
    http::Client& http_;
};

}  // namespace squawk::webhooks
