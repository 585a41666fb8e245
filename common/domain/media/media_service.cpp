#include "common/domain/media/media_service.hpp"

#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"

#include <filesystem>

namespace squawk::media {
namespace {

ApiError media_not_found() {
    return ApiError(ErrorCode::NotFound, "No media with this id.");
}

}  // namespace

std::string MediaService::path_of(const Media& m) const {
    return settings_.dir + "/" + m.storage_path;
}

Media MediaService::get(long long workspace_id, const std::string& public_id) {
    auto m = mysql_.run(
        [&](db::Session& s) { return MediaRepository::find(s, workspace_id, public_id); });
    if (!m) throw media_not_found();
    return std::move(*m);
}

MediaFile MediaService::file(long long workspace_id, const std::string& public_id,
                             const std::string& request_id) {
    const auto m = get(workspace_id, public_id);
    std::string path = path_of(m);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        log::error("media file missing",
                   {{"request_id", request_id}, {"media_id", m.public_id}, {"path", path}});
        throw ApiError(ErrorCode::NotFound, "The media file is no longer available.");
    }
    return {std::move(path), m.mime_type};
}

void MediaService::remove(long long workspace_id, const std::string& public_id,
                          const std::string& request_id) {
    const auto m = get(workspace_id, public_id);
    const bool removed = mysql_.run(
        [&](db::Session& s) { return MediaRepository::remove(s, workspace_id, m.public_id); });
    if (!removed) throw media_not_found();  // deleted by a concurrent request
    // The row goes first: a file left behind is garbage, a row without its file is a broken link.
    std::error_code ec;
    std::filesystem::remove(path_of(m), ec);
    if (ec)
        log::warn("media file not removed",
                  {{"request_id", request_id}, {"media_id", m.public_id}, {"error", ec.message()}});
}

}  // namespace squawk::media
