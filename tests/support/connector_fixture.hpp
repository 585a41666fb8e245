// Connectors configured against the fake platforms, for tests that call a connector directly
// rather than through the API and the publish worker.
#pragma once

#include "common/core/fs/work_files.hpp"
#include "common/core/http/http_client.hpp"
#include "common/domain/social/connector.hpp"
#include "tests/support/fake_platforms.hpp"

#include <nlohmann/json.hpp>

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

// The query of a call the fake recorded ("target"), and its form body ("body"), decoded.
Fields call_query(const nlohmann::json& call);
Fields form_of(const nlohmann::json& call);

// Now as Unix seconds, as platforms write token lifetimes.
long long unix_now();

// RFC 7636's example PKCE pair: the verifier tests hand in and the challenge it yields.
inline const std::string kPkceVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
inline const std::string kPkceChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

// An image a client uploaded: `bytes` bytes of PNG as the media stage hands them over.
social::Upload png(const std::string& name, size_t bytes = 2'000);

// What the media stage knows of a downloaded video, beyond its size.
struct VideoShape {
    double seconds = 0;
    int width = 0;
    int height = 0;
    std::string name = "clip.mp4";  // the file in the folder; its URL is cdn.example's
};
// A video file of `bytes` bytes written into `folder`, described as the media stage hands it to
// a connector.
social::Video video_file(const fs::ScratchDirectory& folder, long long bytes,
                         VideoShape shape = {});

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
