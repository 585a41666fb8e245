// Connected social platforms: limits of account groups, media checks, and each platform's API.
// Sections [social] and [social.<platform>]; the rows are in social_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <map>
#include <string>

namespace squawk::config {

// A social platform's API: its base URL (self-hosted Bot API servers, fakes in tests) and the
// timeout of one call; for OAuth platforms the application's credentials and consent page.
struct PlatformSettings {
    std::string api_base_url;
    int timeout_ms = 10000;
    std::string client_id;
    std::string client_secret;
    std::string authorize_url;
    std::string token_url;   // only where the token endpoint is on another host than the API
    std::string upload_url;  // only where media uploads go to another host (a video service)
    // LinkedIn: the consent also asks the organization scopes (an application with the Community
    // Management API), so that members may post as the pages they administer.
    bool organization_pages = false;
};

// Keyed by platform identifier.
struct SocialSettings {
    std::map<std::string, PlatformSettings> platforms;
    int max_groups_per_workspace = 50;
    int max_accounts_per_group = 100;
    // Per request of the publish worker's media probe (HEAD or one-byte GET of a media URL).
    int media_probe_timeout_ms = 10000;
    // For the whole download of an image the platform takes only as an upload.
    int media_download_timeout_ms = 60000;
    // The publish worker's media cache (workers/publish/media_cache.hpp): downloaded files and
    // their readings kept on disk, at most this many bytes, each reused for this long after it
    // was fetched; and how long before their time scheduled posts' media are prepared.
    long long media_cache_bytes = 2LL * 1024 * 1024 * 1024;
    int media_cache_ttl_seconds = 900;
    int media_prefetch_lead_seconds = 300;
};

SectionSchema<SocialSettings> social_schema();

}  // namespace squawk::config
