#include "workers/runtime/fiber_http.hpp"

#include <boost/fiber/future.hpp>
#include <boost/fiber/operations.hpp>

#include <memory>

namespace squawk::workers {

http::Response fiber_send(http::Client& client, http::Request request) {
    // Shared with the callback: the curl thread may fulfil it after this fiber resumed elsewhere.
    auto promise = std::make_shared<boost::fibers::promise<http::Response>>();
    auto future = promise->get_future();
    client.submit(std::move(request),
                  [promise](http::Response r) { promise->set_value(std::move(r)); });
    return future.get();
}

void fiber_pause(std::chrono::microseconds duration) {
    boost::this_fiber::sleep_for(duration);
}

}  // namespace squawk::workers
