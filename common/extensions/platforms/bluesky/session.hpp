// An account's authenticated session on its PDS for one operation: taken from the process's
// sessions when the credentials have one, else opened with createSession (one call for all the
// operations that wait for it at once); a call its access token no longer opens renews it
// (refreshSession, then createSession) and is sent once more.
#pragma once

#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/bluesky/session_cache.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>

namespace squawk::social::bluesky {

class PdsSession {
  public:
    // The session of `credentials` (identifier, app_password) on `pds`, whose base URL is
    // `service`. Nothing is called before open().
    PdsSession(PlatformApi& pds, const std::string& service, const Credentials& credentials);

    // Takes the kept session or opens one; the failure, naming app_password, when none opens.
    std::optional<PlatformFailure> open();
    const std::string& did() const { return tokens_.did; }
    const std::string& handle() const { return tokens_.handle; }
    // The PDS's API itself, for the calls that need no session (resolveHandle).
    PlatformApi& pds() const { return pds_; }

    // An XRPC call with the access token; `body` is sent as JSON unless it is null.
    Answer call(const char* method, const std::string& path, const nlohmann::json& body = nullptr);
    // The same with a body of `content_type` (a blob).
    Answer call(const char* method, const std::string& path, const std::string& content_type,
                const std::string& body);

  private:
    using Send = std::function<http::Response(http::HeaderList bearer)>;

    Answer authorized(const Send& send);
    // After the PDS refused the access token: another caller's newer session, the refreshed one
    // (when it `expired`), or a new one.
    std::optional<PlatformFailure> renew(bool expired);
    // Takes the kept session if another caller replaced `stale` since.
    bool adopt_newer(const std::string& stale);
    std::optional<PlatformFailure> create();
    http::HeaderList bearer() const;

    PlatformApi& pds_;
    std::string key_;
    std::string identifier_;
    std::string password_;
    SessionTokens tokens_;
    bool created_ = false;  // by createSession in this operation rather than kept
};

}  // namespace squawk::social::bluesky
