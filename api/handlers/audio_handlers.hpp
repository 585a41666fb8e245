// Text to speech (scope audio:write): validated here, rendered by the generate worker pool.
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/services.hpp"

namespace squawk::api::handlers {

inline constexpr size_t kMaxSpeechCharacters = 5000;

Reply text_to_speech(const RequestContext& ctx, Services& services);

}  // namespace squawk::api::handlers
