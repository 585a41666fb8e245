// What the media routes do: tenant-scoped reads of media records and their files, uploads
// (direct, or through an upload URL then confirmed), deletion (row first, then object) and the
// sweep of upload URLs that expired unused. Files live in the object store; a store that hands
// out presigned URLs takes uploads and serves downloads itself. Raises ApiError.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/core/storage/object_store.hpp"
#include "common/core/storage/storage_settings.hpp"
#include "common/domain/media/media_repository.hpp"
#include "common/domain/media/media_settings.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace squawk::media {

// Where a client gets a media's bytes: a presigned URL of the store, or a file on this machine
// served as `mime_type`.
struct MediaFile {
    std::optional<std::string> url;
    std::string path;
    std::string mime_type;
    long long size_bytes = 0;
};

// A pending upload and where its bytes go: the store's presigned PUT, or the API's own upload
// route named by a token (only its hash is stored).
struct UploadUrl {
    Media media;
    std::optional<std::string> presigned_url;
    std::string token;
};

// `request_id` only names the request in log lines.
class MediaService {
  public:
    MediaService(db::MysqlPool& mysql, const config::Config& config, storage::ObjectStore& store);

    // Throws NotFound when the workspace has no such media.
    Media get(long long workspace_id, const std::string& public_id);
    MediaPage list(long long workspace_id, const std::optional<std::string>& kind, long long offset,
                   int limit);
    // NotFound also when the media is not ready or a local file outlived its record.
    MediaFile file(long long workspace_id, const std::string& public_id,
                   const std::string& request_id);
    // Refused with CONFLICT (details.post_ids) while a scheduled post of the workspace uses the
    // media by `download_url`.
    void remove(long long workspace_id, const std::string& public_id,
                const std::string& download_url, const std::string& request_id);

    // Keeps the received `file` (of `size_bytes`) as a ready media when inspection accepts it,
    // taking it over; otherwise VALIDATION_ERROR on `file` and the file stays the caller's.
    // `filename` is the client's name for it, already checked.
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
    // VALIDATION_ERROR on `file` when inspection refuses them (or they pass
    // media.max_upload_bytes), and then the pending media and its bytes are deleted. A ready
    // media is answered again.
    Media confirm(long long workspace_id, const std::string& public_id,
                  const std::string& request_id);

    // Deletes up to `limit` pending uploads whose URL expired, rows and files; how many.
    long long sweep_expired_uploads(int limit);

  private:
    // Puts `file` into the store as `key`; the file is gone afterwards.
    void store_file(const std::string& key, fs::OwnedFile& file, const std::string& mime_type);
    void remove_object(const std::string& key, const std::string& request_id);
    // Deletes a pending media refused at confirm, row and bytes.
    void discard(const Media& m, const std::string& request_id);
    Media confirmed_meanwhile(long long workspace_id, const std::string& public_id);

    db::MysqlPool& mysql_;
    const config::MediaSettings& settings_;
    const config::StorageSettings& storage_settings_;
    storage::ObjectStore& store_;
};

}  // namespace squawk::media
