#include "api/handlers/media_handlers.hpp"

#include "api/render/media_json.hpp"
#include "common/core/config/config.hpp"
#include "common/domain/media/media_service.hpp"

namespace squawk::api::handlers {
namespace {

media::MediaService service(Services& services) {
    return media::MediaService(services.mysql, services.config.media);
}

}  // namespace

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

}  // namespace squawk::api::handlers
