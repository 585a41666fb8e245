// Bounds on a request's header block, as the proxies users put in front of an API apply them:
// 16 kB in all and 8 kB a line. Pistache, which parses what the request stream cannot frame,
// reads headers up to its whole-request cap (8 MB), so without these a client could make every
// request carry megabytes of headers.
#pragma once

#include "api/server/request_head.hpp"

#include <cstddef>

namespace squawk::api {

inline constexpr size_t kMaxHeaderBlockBytes = 16 * 1024;
inline constexpr size_t kMaxHeaderLineBytes = 8 * 1024;

// Counts each header line ("Name: value"). Throws ApiError HeadersTooLarge (431) naming the
// bound that was passed.
void check_header_sizes(const RequestHead& head);

}  // namespace squawk::api
