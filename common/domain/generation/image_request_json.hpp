// An image request as a job's payload: written by the API once validated, read back by the job.
// Only the members a request set are written, so a stored request reads as the client's intent.
#pragma once

#include "common/domain/generation/image_provider.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string_view>

namespace squawk::generation {

nlohmann::json to_json(const ImageRequest& request);
// Throws std::invalid_argument naming the member when `payload` is not such a request.
ImageRequest image_request_from_json(const nlohmann::json& payload);

// "1080x1920" -> {1080, 1920} when it is one of kImageSizes.
std::optional<ImageSize> parse_image_size(std::string_view name);

}  // namespace squawk::generation
