// HTTP and pauses from fibers: the request goes to the shared libcurl multi loop and only the
// calling fiber parks until the answer, so one thread holds hundreds of requests in flight; a
// pause (time::pause) parks only the calling fiber too.
#pragma once

#include "common/core/http/http_client.hpp"

namespace squawk::workers {

http::Response fiber_send(http::Client& client, http::Request request);
void fiber_pause(std::chrono::microseconds duration);

}  // namespace squawk::workers
