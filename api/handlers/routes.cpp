#include "api/handlers/routes.hpp"

#include "api/handlers/audio_handlers.hpp"
#include "api/handlers/billing_handlers.hpp"
#include "api/handlers/job_handlers.hpp"
#include "api/handlers/log_handlers.hpp"
#include "api/handlers/me_handlers.hpp"
#include "api/handlers/media_handlers.hpp"
#include "api/handlers/profile_handlers.hpp"
#include "api/handlers/social_account_handlers.hpp"
#include "api/handlers/social_post_handlers.hpp"
#include "api/handlers/social_queue_handlers.hpp"
#include "api/handlers/social_sync_handlers.hpp"
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

constexpr Access kSocialRead = Access::needs("social:read");
constexpr Access kSocialWrite = Access::needs("social:write");

constexpr Access kProfilesRead = Access::needs("profiles:read");
constexpr Access kProfilesManage = Access::needs("profiles:manage");

// Health, the document and the metrics are served at the root (for load balancers, tooling and
// scrapers) and under /v1.
constexpr std::array kRoutes{
    Route::get("/health", kOpen, health).unlimited(),
    Route::get("/v1/health", kOpen, health).unlimited(),
    Route::get("/openapi.json", kOpen, openapi_document).unlimited(),
    Route::get("/v1/openapi.json", kOpen, openapi_document).unlimited(),
    Route::get("/metrics", kOpen, metrics).unlimited(),
    Route::get("/v1/metrics", kOpen, metrics).unlimited(),
    Route::get("/v1/me", kAnyKey, get_me),
    Route::get("/v1/me/balance", kAnyKey, get_balance),
    Route::get("/v1/me/billing", kAnyKey, get_billing),
    Route::get("/v1/me/usage", kAnyKey, get_usage),
    Route::get("/v1/jobs", Access::needs("jobs:read"), list_jobs),
    // Polling a job is never limited (spec 1, 8.1).
    Route::get("/v1/jobs/{job_id}", Access::needs("jobs:read"), get_job).unlimited(),
    Route::post("/v1/jobs/{job_id}/cancel", Access::needs("jobs:read"), cancel_job),
    Route::post("/v1/jobs/ping", Access::needs("jobs:read"), submit_ping),
    Route::post("/v1/audio/text-to-speech", Access::needs("audio:write"), text_to_speech)
        .billable("text_to_speech"),
    Route::get("/v1/media/{media_id}", Access::needs("media:read"), get_media),
    Route::del("/v1/media/{media_id}", Access::needs("media:write"), delete_media),
    Route::get("/v1/media/{media_id}/download", Access::needs("media:read"), download_media),
    // Profiles are managed from the owner's own workspace, never from inside a profile.
    Route::post("/v1/profiles", kProfilesManage, create_profile).without_profiles(),
    Route::get("/v1/profiles", kProfilesRead, list_profiles).without_profiles(),
    Route::get("/v1/profiles/{id}", kProfilesRead, get_profile).without_profiles(),
    Route::patch("/v1/profiles/{id}", kProfilesManage, update_profile).without_profiles(),
    Route::del("/v1/profiles/{id}", kProfilesManage, delete_profile).without_profiles(),
    Route::post("/v1/profiles/{id}/pause", kProfilesManage, pause_profile).without_profiles(),
    Route::post("/v1/profiles/{id}/resume", kProfilesManage, resume_profile).without_profiles(),
    // Social accounts belong to the workspace acted in, so X-Profile-Id targets a profile's.
    Route::post("/v1/social/connect/{platform}", kSocialWrite, connect_social_account),
    Route::get("/v1/social/accounts", kSocialRead, list_social_accounts),
    Route::get("/v1/social/accounts/health", kSocialRead, social_accounts_health),
    Route::patch("/v1/social/accounts/{account_id}", kSocialWrite, rename_social_account),
    // Also needs profiles:manage, checked by the handler (a route names one scope).
    Route::post("/v1/social/accounts/{account_id}/move", kSocialWrite, move_social_account),
    Route::del("/v1/social/accounts/{account_id}", kSocialWrite, disconnect_social_account),
    Route::get("/v1/social/account-groups", kSocialRead, list_account_groups),
    Route::post("/v1/social/account-groups", kSocialWrite, create_account_group),
    Route::get("/v1/social/account-groups/{group_id}", kSocialRead, get_account_group),
    Route::patch("/v1/social/account-groups/{group_id}", kSocialWrite, update_account_group),
    Route::del("/v1/social/account-groups/{group_id}", kSocialWrite, delete_account_group),
    Route::post("/v1/social/posts/sync-external", kSocialWrite, sync_external_posts),
    Route::get("/v1/social/queues", kSocialRead, list_queues),
    Route::post("/v1/social/queues", kSocialWrite, create_queue),
    Route::get("/v1/social/queues/{queue_id}", kSocialRead, get_queue),
    Route::patch("/v1/social/queues/{queue_id}", kSocialWrite, update_queue),
    Route::del("/v1/social/queues/{queue_id}", kSocialWrite, delete_queue),
    Route::get("/v1/social/queues/{queue_id}/preview", kSocialRead, preview_queue),
    Route::get("/v1/social/queues/{queue_id}/next-slot", kSocialRead, queue_next_slot),
    // Creating posts is not billed: publishing is charged per connected account (spec 8.3).
    Route::post("/v1/social/posts", kSocialWrite, create_post).keyed_by_request_id(),
    Route::post("/v1/social/posts/schedule", kSocialWrite, schedule_post).keyed_by_request_id(),
    Route::post("/v1/social/posts/bulk", kSocialWrite, bulk_posts),
    Route::post("/v1/social/posts/bulk/validate", kSocialWrite, validate_bulk_posts),
    Route::get("/v1/social/posts", kSocialRead, list_posts),
    Route::get("/v1/social/posts/{post_id}", kSocialRead, get_post),
    Route::patch("/v1/social/posts/{post_id}", kSocialWrite, update_post),
    Route::del("/v1/social/posts/{post_id}", kSocialWrite, delete_post),
    Route::post("/v1/social/posts/{post_id}/edit", kSocialWrite, edit_post),
    Route::post("/v1/social/posts/{post_id}/update-metadata", kSocialWrite, update_post_metadata),
    Route::del("/v1/social/posts/{post_id}/recycle", kSocialWrite, stop_post_recycling),
    Route::get("/v1/logs", Access::needs("logs:read"), list_request_logs),
    // Webhooks belong to the caller's own workspace; profiles' events reach them by fan-out.
    Route::get("/v1/webhooks", kWebhooksRead, list_webhooks).without_profiles(),
    Route::post("/v1/webhooks", kWebhooksWrite, create_webhook).without_profiles(),
    Route::get("/v1/webhooks/logs", kWebhooksRead, webhook_logs).without_profiles(),
    Route::get("/v1/webhooks/deliveries/{delivery_id}", kWebhooksRead, get_delivery)
        .without_profiles(),
    Route::post("/v1/webhooks/deliveries/{delivery_id}/replay", kWebhooksWrite, replay_delivery)
        .without_profiles(),
    Route::put("/v1/webhooks/{webhook_id}", kWebhooksWrite, update_webhook).without_profiles(),
    Route::del("/v1/webhooks/{webhook_id}", kWebhooksWrite, delete_webhook).without_profiles(),
    Route::post("/v1/webhooks/{webhook_id}/test", kWebhooksWrite, test_webhook).without_profiles(),
    Route::post("/v1/webhooks/{webhook_id}/rotate-secret", kWebhooksWrite, rotate_webhook_secret)
        .without_profiles(),
    Route::post("/v1/webhooks/{webhook_id}/replay-dead-letters", kWebhooksWrite,
                replay_dead_letters)
        .without_profiles(),
};

}  // namespace

std::span<const Route> route_table() {
    return kRoutes;
}

}  // namespace squawk::api
