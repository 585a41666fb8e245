// The API's JSON for media records and upload URLs, with links under the API's public base URL.
#pragma once

#include "common/domain/media/media_service.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace squawk::api::render {

// Where a media file is downloaded; scheduled posts refer to media by this URL.
std::string media_download_url(const std::string& public_base_url, const std::string& media_id);

nlohmann::json media_json(const media::Media& m, const std::string& public_base_url);

// {media_id, upload_url, expires_at, method}
nlohmann::json upload_url_json(const media::UploadUrl& upload, const std::string& public_base_url);

}  // namespace squawk::api::render
