// The API's JSON for media records, with the download URL under the API's public base URL.
#pragma once

#include "common/domain/media/media_repository.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace squawk::api::render {

nlohmann::json media_json(const media::Media& m, const std::string& public_base_url);

}  // namespace squawk::api::render
