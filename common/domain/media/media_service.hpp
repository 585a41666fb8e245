// What the media routes do: tenant-scoped reads of media records, their files under the media
// directory, and deletion (row first, then file). Raises ApiError; returns domain types.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/media/media_repository.hpp"
#include "common/domain/media/media_settings.hpp"

#include <string>

namespace squawk::media {

// A media file on disk and the type it is served as.
struct MediaFile {
    std::string path;
    std::string mime_type;
};

// `request_id` only names the request in log lines.
class MediaService {
  public:
    MediaService(db::MysqlPool& mysql, const config::MediaSettings& settings)
        : mysql_(mysql), settings_(settings) {}

    // Throws NotFound when the workspace has no such media.
    Media get(long long workspace_id, const std::string& public_id);
    // NotFound also when the record outlived its file.
    MediaFile file(long long workspace_id, const std::string& public_id,
                   const std::string& request_id);
    void remove(long long workspace_id, const std::string& public_id,
                const std::string& request_id);

  private:
    std::string path_of(const Media& m) const;

    db::MysqlPool& mysql_;
    const config::MediaSettings& settings_;
};

}  // namespace squawk::media
