#include "api/handlers/routes.hpp"

#include "api/handlers/audio_handlers.hpp"
#include "api/handlers/job_handlers.hpp"
#include "api/handlers/me_handlers.hpp"
#include "api/handlers/media_handlers.hpp"
#include "api/handlers/system_handlers.hpp"

#include <array>

namespace squawk::api {

namespace {

using namespace handlers;
constexpr Access kOpen = Access::open_to_all();
constexpr Access kAnyKey = Access::any_key();

// Health, the document and the metrics are served at the root (for load balancers, tooling and
// scrapers) and under /v1.
constexpr std::array kRoutes{
    Route{"GET", "/health", kOpen, health},
    Route{"GET", "/v1/health", kOpen, health},
    Route{"GET", "/openapi.json", kOpen, openapi_document},
    Route{"GET", "/v1/openapi.json", kOpen, openapi_document},
    Route{"GET", "/metrics", kOpen, metrics},
    Route{"GET", "/v1/metrics", kOpen, metrics},
    Route{"GET", "/v1/me", kAnyKey, get_me},
    Route{"GET", "/v1/me/balance", kAnyKey, get_balance},
    Route{"GET", "/v1/jobs", Access::needs("jobs:read"), list_jobs},
    Route{"GET", "/v1/jobs/{job_id}", Access::needs("jobs:read"), get_job},
    Route{"POST", "/v1/jobs/{job_id}/cancel", Access::needs("jobs:read"), cancel_job},
    Route{"POST", "/v1/jobs/ping", Access::needs("jobs:read"), submit_ping},
    Route{"POST", "/v1/audio/text-to-speech", Access::needs("audio:write"), text_to_speech},
    Route{"GET", "/v1/media/{media_id}", Access::needs("media:read"), get_media},
    Route{"DELETE", "/v1/media/{media_id}", Access::needs("media:write"), delete_media},
    Route{"GET", "/v1/media/{media_id}/download", Access::needs("media:read"), download_media},
};

}  // namespace

std::span<const Route> route_table() { return kRoutes; }

}  // namespace squawk::api
