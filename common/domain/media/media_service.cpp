#include "common/domain/media/media_service.hpp"

#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/storage/local_copy.hpp"
#include "common/domain/media/media_inspector.hpp"
#include "common/domain/media/media_types.hpp"

#include <filesystem>

namespace squawk::media {
namespace {

// What the bytes turned out to be, and the file name that says so.
void take_inspection(Media& m, const Inspection& found) {
    m.kind = found.kind;
    m.mime_type = found.mime_type;
    m.width = found.width;
    m.height = found.height;
    m.duration_seconds = found.duration_seconds;
    m.storage_path = std::to_string(m.workspace_id) + "/" + m.public_id + "." + found.extension;
}

ApiError media_not_found() {
    return ApiError(ErrorCode::NotFound, "No media with this id.");
}

ApiError upload_url_not_found() {
    return ApiError(ErrorCode::NotFound,
                    "This upload URL is unknown, expired or already used; request a new one.");
}

ApiError file_refused(const std::string& reason) {
    return validation_error({{"file", reason}}, "The file is not an accepted media file.");
}

std::string random_suffix() {
    return crypto::hex(crypto::random_bytes(6));
}

// Where an upload's bytes wait for confirm. Presigned uploads wait under one prefix, so a bucket
// lifecycle rule can expire what a client sent to a URL after its media was confirmed or swept.
std::string pending_key(const Media& m, bool presigned) {
    const std::string folder = std::to_string(m.workspace_id) + "/" + m.public_id;
    // A name per request: a second PUT with the same token cannot overwrite the first one's bytes.
    return presigned ? "uploads/" + folder : folder + ".upload-" + random_suffix();
}

// A scratch file name in the API's folder for files in transit.
std::filesystem::path incoming_file(const config::MediaSettings& settings, std::string_view what) {
    return std::filesystem::path(settings.dir) / ".incoming" /
           (std::string(what) + "-" + crypto::hex(crypto::random_bytes(12)));
}

}  // namespace

MediaService::MediaService(db::MysqlPool& mysql, const config::Config& config,
                           storage::ObjectStore& store)
    : mysql_(mysql), settings_(config.media), storage_settings_(config.storage), store_(store) {}

Media MediaService::get(long long workspace_id, const std::string& public_id) {
    auto m = mysql_.run(
        [&](db::Session& s) { return MediaRepository::find(s, workspace_id, public_id); });
    if (!m) throw media_not_found();
    return std::move(*m);
}

MediaPage MediaService::list(long long workspace_id, const std::optional<std::string>& kind,
                             long long offset, int limit) {
    return mysql_.run([&](db::Session& s) {
        return MediaRepository::list_ready(s, workspace_id, kind, offset, limit);
    });
}

MediaFile MediaService::file(long long workspace_id, const std::string& public_id,
                             const std::string& request_id) {
    const auto m = get(workspace_id, public_id);
    if (m.status != "ready")
        throw ApiError(ErrorCode::NotFound, "The media has not been uploaded and confirmed yet.");
    // The store serves the bytes itself when it can; it answers 404 for an object gone missing.
    storage::ResponseOverrides overrides{m.mime_type, std::nullopt};
    if (auto url = store_.presign_get(
            m.storage_path, std::chrono::seconds(storage_settings_.presign_ttl_seconds), overrides))
        return {std::move(url), {}, m.mime_type, m.size_bytes};
    std::string path = store_.local_path(m.storage_path).value().string();
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec || !std::filesystem::is_regular_file(path, ec)) {
        log::error("media file missing",
                   {{"request_id", request_id}, {"media_id", m.public_id}, {"path", path}});
        throw ApiError(ErrorCode::NotFound, "The media file is no longer available.");
    }
    return {std::nullopt, std::move(path), m.mime_type, static_cast<long long>(size)};
}

void MediaService::remove(long long workspace_id, const std::string& public_id,
                          const std::string& download_url, const std::string& request_id) {
    const auto m = get(workspace_id, public_id);
    const auto posts = mysql_.run([&](db::Session& s) {
        return MediaRepository::scheduled_posts_using(s, workspace_id, download_url);
    });
    if (!posts.empty())
        throw ApiError(ErrorCode::Conflict,
                       "Scheduled posts use this media; delete or edit them first.",
                       {{"post_ids", posts}});
    const bool removed = mysql_.run(
        [&](db::Session& s) { return MediaRepository::remove(s, workspace_id, m.public_id); });
    if (!removed) throw media_not_found();  // deleted by a concurrent request
    // The row goes first: an object left behind is garbage, a row without its object a broken link.
    remove_object(m.storage_path, request_id);
}

void MediaService::store_file(const std::string& key, squawk::fs::OwnedFile& file,
                              const std::string& mime_type) {
    store_.put_file(key, file.path(), mime_type);
    file.release();
}

void MediaService::remove_object(const std::string& key, const std::string& request_id) {
    if (key.empty()) return;  // a pending upload that never received bytes
    try {
        store_.remove(key);
    } catch (const storage::StorageError& e) {
        log::warn("media object not removed",
                  {{"request_id", request_id}, {"key", key}, {"error", e.what()}});
    }
}

Media MediaService::upload(long long workspace_id, squawk::fs::OwnedFile& file,
                           long long size_bytes, const std::optional<std::string>& filename) {
    if (size_bytes == 0) throw file_refused("the file is empty");
    Media m;
    m.public_id = MediaRepository::new_public_id();
    m.workspace_id = workspace_id;
    m.filename = filename;
    m.size_bytes = size_bytes;
    Inspection found;
    try {
        found = inspect_media(file.path().string(), settings_);
    } catch (const UnacceptableMedia& e) {
        throw file_refused(e.what());
    }
    take_inspection(m, found);
    store_file(m.storage_path, file, m.mime_type);
    try {
        return mysql_.run([&](db::Session& s) { return MediaRepository::insert(s, m); });
    } catch (...) {
        remove_object(m.storage_path, "upload-direct");
        throw;
    }
}

UploadUrl MediaService::create_upload_url(long long workspace_id, const std::string& filename,
                                          const std::string& mime_type) {
    const MediaType* type = accepted_type(mime_type);
    if (!type) throw std::logic_error("create_upload_url: unchecked type " + mime_type);
    const auto ttl = std::chrono::seconds(settings_.upload_url_ttl_seconds);
    UploadUrl out;
    Media& m = out.media;
    m.public_id = MediaRepository::new_public_id();
    m.workspace_id = workspace_id;
    m.kind = std::string(type->kind);
    m.status = "pending";
    m.mime_type = std::string(type->mime_type);
    m.filename = filename;
    m.upload_expires_at = time::now() + ttl;
    const std::string key = pending_key(m, true);
    out.presigned_url = store_.presign_put(key, m.mime_type, ttl);
    if (out.presigned_url) {
        m.storage_path = key;
    } else {
        out.token = crypto::hex(crypto::random_bytes(32));
        m.upload_token_hash = crypto::sha256_hex(out.token);
    }
    m = mysql_.run([&](db::Session& s) { return MediaRepository::insert(s, m); });
    return out;
}

Media MediaService::receive_upload(const std::string& token, squawk::fs::OwnedFile& file,
                                   long long size_bytes) {
    const std::string hash = crypto::sha256_hex(token);
    auto m =
        mysql_.run([&](db::Session& s) { return MediaRepository::find_by_upload_token(s, hash); });
    const auto now = time::now();
    if (!m || !m->upload_expires_at || *m->upload_expires_at <= now) throw upload_url_not_found();
    if (size_bytes == 0) throw file_refused("the body is empty");
    const std::string key = pending_key(*m, false);
    store_file(key, file, m->mime_type);
    const bool burnt = mysql_.run([&](db::Session& s) {
        return MediaRepository::store_upload(s, m->id, hash, key, size_bytes, now);
    });
    if (!burnt) {
        remove_object(key, "upload-url");
        throw upload_url_not_found();
    }
    m->storage_path = key;
    m->size_bytes = size_bytes;
    m->upload_token_hash.reset();
    return std::move(*m);
}

void MediaService::discard(const Media& m, const std::string& request_id) {
    // Nothing of a refused upload is kept: the client starts again with a new upload URL.
    mysql_.run([&](db::Session& s) { return MediaRepository::remove_by_id(s, m.id); });
    remove_object(m.storage_path, request_id);
}

Media MediaService::confirmed_meanwhile(long long workspace_id, const std::string& public_id) {
    Media current = get(workspace_id, public_id);
    if (current.status == "ready") return current;
    throw ApiError(ErrorCode::Conflict, "The media changed while it was being confirmed.");
}

Media MediaService::confirm(long long workspace_id, const std::string& public_id,
                            const std::string& request_id) {
    Media m = get(workspace_id, public_id);
    if (m.status == "ready") return m;
    const auto received_bytes =
        m.upload_token_hash || m.storage_path.empty() ? std::nullopt : store_.size(m.storage_path);
    if (!received_bytes)
        throw ApiError(ErrorCode::NotUploaded, "No bytes were sent to this media's upload URL.");
    // A presigned PUT cannot limit its size: the limit is enforced here.
    if (static_cast<long long>(*received_bytes) > settings_.max_upload_bytes) {
        discard(m, request_id);
        throw file_refused("the file is over media.max_upload_bytes (" +
                           std::to_string(settings_.max_upload_bytes) + " bytes)");
    }
    m.size_bytes = static_cast<long long>(*received_bytes);
    const std::string received = m.storage_path;
    Inspection found;
    try {
        const storage::LocalCopy bytes(store_, received, incoming_file(settings_, "confirm"));
        found = inspect_media(bytes.path().string(), settings_);
    } catch (const UnacceptableMedia& e) {
        discard(m, request_id);
        throw file_refused(e.what());
    } catch (const storage::StorageError& e) {
        // A concurrent confirm moved the bytes to their final key.
        if (e.code() == "NoSuchKey") return confirmed_meanwhile(workspace_id, public_id);
        throw;
    }
    take_inspection(m, found);
    try {
        store_.move(received, m.storage_path);
    } catch (const storage::StorageError& e) {
        if (e.code() == "NoSuchKey") return confirmed_meanwhile(workspace_id, public_id);
        throw;
    }
    const bool made_ready =
        mysql_.run([&](db::Session& s) { return MediaRepository::mark_ready(s, m); });
    if (!made_ready) return confirmed_meanwhile(workspace_id, public_id);
    m.status = "ready";
    m.upload_expires_at.reset();
    return m;
}

long long MediaService::sweep_expired_uploads(int limit) {
    const auto expired = mysql_.run(
        [&](db::Session& s) { return MediaRepository::expired_uploads(s, time::now(), limit); });
    long long removed = 0;
    for (const auto& m : expired) {
        const bool deleted =
            mysql_.run([&](db::Session& s) { return MediaRepository::remove_by_id(s, m.id); });
        if (!deleted) continue;
        remove_object(m.storage_path, "retention-sweep");
        ++removed;
    }
    return removed;
}

}  // namespace squawk::media
