// Connectors configured against the fake platforms, for tests that call a connector directly
// rather than through the API and the publish worker.
#pragma once

#include "common/core/http/http_client.hpp"
#include "common/domain/social/connector.hpp"
#include "tests/support/fake_platforms.hpp"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::testing {

using Fields = std::map<std::string, std::string>;

// name=value pairs of a query string or a form body, decoded.
Fields form_fields(std::string_view text);
// The query parameters of `url`, decoded; empty when it has no query.
Fields query_fields(const std::string& url);

// What one publish sends; no idempotency key, as a first send has.
social::Message message(std::string text, std::vector<std::string> images = {});

struct ConnectorFixture {
    ConnectorFixture();
    std::unique_ptr<social::Connector> connector(const std::string& platform);
    // The application the platform's fake knows, sending users back to a callback nobody
    // serves: tests read the code from the consent page's redirect (consent()).
    social::OAuthClient oauth_client(const std::string& platform) const;
    // Opens `consent_url` as the user's browser would and returns the query parameters of the
    // redirect it answers (code and state, or error); empty when it does not redirect.
    Fields consent(const std::string& consent_url);

    FakePlatforms fake;
    http::Client http{8};
    config::SocialSettings settings;
};

}  // namespace squawk::testing
