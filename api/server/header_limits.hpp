// Bounds on a request's header block, as the proxies users put in front of an API apply them:
// 16 kB in all and 8 kB a line. Pistache reads headers up to its whole-request cap (1 MB), so
// without these a client could make every request carry a megabyte of headers.
#pragma once

#include <pistache/http_headers.h>

#include <cstddef>

namespace squawk::api {

inline constexpr size_t kMaxHeaderBlockBytes = 16 * 1024;
inline constexpr size_t kMaxHeaderLineBytes = 8 * 1024;

// Counts each header line ("Name: value"), typed and raw headers alike. Throws ApiError
// HeadersTooLarge (431) naming the bound that was passed.
void check_header_sizes(const Pistache::Http::Header::Collection& headers);

}  // namespace squawk::api
