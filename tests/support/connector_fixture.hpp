// Connectors configured against the fake platforms, for tests that call a connector directly
// rather than through the API and the publish worker.
#pragma once

#include "common/core/http/http_client.hpp"
#include "common/domain/social/connector.hpp"
#include "tests/support/fake_platforms.hpp"

#include <memory>
#include <string>
#include <vector>

namespace squawk::testing {

// What one publish sends; no idempotency key, as a first send has.
social::Message message(std::string text, std::vector<std::string> images = {});

struct ConnectorFixture {
    ConnectorFixture();
    std::unique_ptr<social::Connector> connector(const std::string& platform);

    FakePlatforms fake;
    http::Client http{8};
    config::SocialSettings settings;
};

}  // namespace squawk::testing
