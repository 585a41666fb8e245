#include "api/handlers/routes.hpp"

#include "api/handlers/audio_handlers.hpp"
#include "api/handlers/job_handlers.hpp"
#include "api/handlers/me_handlers.hpp"
#include "api/handlers/media_handlers.hpp"
#include "api/handlers/system_handlers.hpp"
#include "api/handlers/webhook_handlers.hpp"

#include <array>

namespace squawk::api {

namespace {

using namespace handlers;
constexpr Access kOpen = Access::open_to_all();
constexpr Access kAnyKey = Access::any_key();
constexpr Access kWebhooksRead = Access::needs("webhooks:read");
constexpr Access kWebhooksWrite = Access::needs("webhooks:write");

// Health and the document are served at the root (for load balancers and tooling) and under /v1.
constexpr std::array kRoutes{
    Route{"GET", "/health", kOpen, health},
    Route{"GET", "/v1/health", kOpen, health},
    Route{"GET", "/openapi.json", kOpen, openapi_document},
    Route{"GET", "/v1/openapi.json", kOpen, openapi_document},
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
    Route{"GET", "/v1/webhooks", kWebhooksRead, list_webhooks},
    Route{"POST", "/v1/webhooks", kWebhooksWrite, create_webhook},
    Route{"GET", "/v1/webhooks/logs", kWebhooksRead, webhook_logs},
    Route{"GET", "/v1/webhooks/deliveries/{delivery_id}", kWebhooksRead, get_delivery},
    Route{"POST", "/v1/webhooks/deliveries/{delivery_id}/replay", kWebhooksWrite, replay_delivery},
    Route{"PUT", "/v1/webhooks/{webhook_id}", kWebhooksWrite, update_webhook},
    Route{"DELETE", "/v1/webhooks/{webhook_id}", kWebhooksWrite, delete_webhook},
    Route{"POST", "/v1/webhooks/{webhook_id}/test", kWebhooksWrite, test_webhook},
    Route{"POST", "/v1/webhooks/{webhook_id}/rotate-secret", kWebhooksWrite, rotate_webhook_secret},
    Route{"POST", "/v1/webhooks/{webhook_id}/replay-dead-letters", kWebhooksWrite,
          replay_dead_letters},
};

}  // namespace

std::span<const Route> route_table() { return kRoutes; }

}  // namespace squawk::api
