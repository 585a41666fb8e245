#include "api/handlers/media_handlers.hpp"

#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "common/domain/media/media_repository.hpp"

#include <filesystem>

namespace squawk::api::handlers {
namespace {

ApiError media_not_found() {
    return ApiError(ErrorCode::NotFound, "No media with this id.");
}

media::Media find_media(const RequestContext& ctx, Services& services) {
    auto m = services.mysql.run([&](db::Session& s) {
        return media::MediaRepository::find(s, ctx.workspace_id, ctx.param("media_id"));
    });
    if (!m) throw media_not_found();
    return *m;
}

std::string file_path(const Services& services, const media::Media& m) {
    return services.config.media.dir + "/" + m.storage_path;
}

}  // namespace

Reply get_media(const RequestContext& ctx, Services& services) {
    const auto m = find_media(ctx, services);
    return Reply::ok(media::to_api_json(
        m, services.config.api.public_base_url + "/media/" + m.public_id + "/download"));
}

Reply download_media(const RequestContext& ctx, Services& services) {
    const auto m = find_media(ctx, services);
    const std::string path = file_path(services, m);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        log::error("media file missing",
                   {{"request_id", ctx.request_id}, {"media_id", m.public_id}, {"path", path}});
        throw ApiError(ErrorCode::NotFound, "The media file is no longer available.");
    }
    return Reply::send_file(FileBody{path, m.mime_type});
}

Reply delete_media(const RequestContext& ctx, Services& services) {
    const auto m = find_media(ctx, services);
    const bool removed = services.mysql.run([&](db::Session& s) {
        return media::MediaRepository::remove(s, ctx.workspace_id, m.public_id);
    });
    if (!removed) throw media_not_found();  // deleted by a concurrent request
    // The row goes first: a file left behind is garbage, a row without its file is a broken link.
    std::error_code ec;
    std::filesystem::remove(file_path(services, m), ec);
    if (ec)
        log::warn(
            "media file not removed",
            {{"request_id", ctx.request_id}, {"media_id", m.public_id}, {"error", ec.message()}});
    return Reply::ok({{"media_id", m.public_id}, {"deleted", true}});
}

}  // namespace squawk::api::handlers
