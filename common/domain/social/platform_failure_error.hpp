// The API's answer to a platform that did not verify an account or grant its tokens: a refusal
// names the connect field (422), throttling is PLATFORM_RATE_LIMITED, a platform error of its own
// PLATFORM_UPSTREAM_ERROR, no answer at all a bare 502.
#pragma once

#include "common/domain/social/connector.hpp"

namespace squawk::social {

[[noreturn]] void raise_platform_failure(const PlatformFactory& platform, const PlatformFailure& f);

}  // namespace squawk::social
