// What the media routes do: tenant-scoped reads of media records and their files, uploads
// (direct, or through a single-use upload URL then confirmed), deletion (row first, then file)
// and the sweep of upload URLs that expired unused. Raises ApiError; returns domain types.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/domain/media/media_repository.hpp"
#include "common/domain/media/media_settings.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace squawk::media {

// A media file on disk and the type it is served as.
struct MediaFile {
    std::string path;
    std::string mime_type;
    long long size_bytes = 0;
};

// A pending upload and the token of its URL (only its hash is stored).
struct UploadUrl {
    Media media;
    std::string token;
};

// `request_id` only names the request in log lines.
class MediaService {
  public:
    MediaService(db::MysqlPool& mysql, const config::MediaSettings& settings)
        : mysql_(mysql), settings_(settings) {}

    // Throws NotFound when the workspace has no such media.
    Media get(long long workspace_id, const std::string& public_id);
    MediaPage list(long long workspace_id, const std::optional<std::string>& kind, long long offset,
                   int limit);
    // NotFound also when the record outlived its file or its bytes never arrived.
    MediaFile file(long long workspace_id, const std::string& public_id,
                   const std::string& request_id);
    // Refused with CONFLICT (details.post_ids) while a scheduled post of the workspace uses the
    // media by `download_url`.
    void remove(long long workspace_id, const std::string& public_id,
                const std::string& download_url, const std::string& request_id);

    // Keeps the received `file` (of `size_bytes`, on the media directory's filesystem) as a ready
    // media when inspection accepts it, taking it over; otherwise VALIDATION_ERROR on `file` and
    // the file stays the caller's. `filename` is the client's name for it, already checked.
    Media upload(long long workspace_id, fs::OwnedFile& file, long long size_bytes,
                 const std::optional<std::string>& filename);
    // A pending media waiting for its bytes at an upload URL; `mime_type` is one of
    // announceable_mime_types() (inspection decides the stored type).
    UploadUrl create_upload_url(long long workspace_id, const std::string& filename,
                                const std::string& mime_type);
    // The file sent to an upload URL: taken over, and the token burnt. NotFound for a token that
    // is unknown, used or expired (the file then stays the caller's).
    Media receive_upload(const std::string& token, fs::OwnedFile& file, long long size_bytes);
    // Inspects the received bytes and makes the media ready. NOT_UPLOADED before any bytes;
    // VALIDATION_ERROR on `file` when inspection refuses them, and then the pending media and
    // its bytes are deleted. A ready media is answered again.
    Media confirm(long long workspace_id, const std::string& public_id,
                  const std::string& request_id);

    // Deletes up to `limit` pending uploads whose URL expired, rows and files; how many.
    long long sweep_expired_uploads(int limit);

  private:
    std::string path_of(const Media& m) const;
    // Moves `file` into the workspace's folder as `name`; its path relative to the media
    // directory.
    std::string adopt_file(long long workspace_id, const std::string& name, fs::OwnedFile& file);
    void remove_file(const std::string& relative_path, const std::string& request_id);

    db::MysqlPool& mysql_;
    const config::MediaSettings& settings_;
};

}  // namespace squawk::media
