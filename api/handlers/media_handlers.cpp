// Media records and their files: read (media:read), download (media:read), delete (media:write).
#include "api/handlers/route_families.hpp"

#include "api/render/media_json.hpp"
#include "api/server/services.hpp"
#include "common/core/config/config.hpp"
#include "common/domain/media/media_service.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

media::MediaService service(Services& services) {
    return media::MediaService(services.mysql, services.config.media);
}

Reply get_media(const RequestContext& ctx, Services& services) {
    return Reply::ok(
        render::media_json(service(services).get(ctx.workspace_id, ctx.param("media_id")),
                           services.config.api.public_base_url));
}

Reply download_media(const RequestContext& ctx, Services& services) {
    auto file = service(services).file(ctx.workspace_id, ctx.param("media_id"), ctx.request_id);
    return Reply::send_file(FileBody{std::move(file.path), std::move(file.mime_type)});
}

Reply delete_media(const RequestContext& ctx, Services& services) {
    const std::string& id = ctx.param("media_id");
    service(services).remove(ctx.workspace_id, id, ctx.request_id);
    return Reply::ok({{"media_id", id}, {"deleted", true}});
}

}  // namespace

template <>
std::span<const Route> routes<Family::media>() {
    constexpr Access kRead = Access::needs("media:read");
    static constexpr std::array kRoutes{
        Route::get("/v1/media/{media_id}", kRead, get_media),
        Route::del("/v1/media/{media_id}", Access::needs("media:write"), delete_media),
        Route::get("/v1/media/{media_id}/download", kRead, download_media),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
