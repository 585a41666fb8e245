// Fires many requests at the same moment (one thread and connection each, released together),
// spread round-robin over several API processes, for the tests of exact limits under load.
#pragma once

#include "tests/support/http_client.hpp"

#include <string>
#include <vector>

namespace squawk::testing {

struct ConcurrentRequest {
    std::string method = "GET";
    std::string path;
    std::optional<std::string> body;  // sent as application/json
    Headers headers;
};

// Responses in request order; a request that got no answer has status 0.
std::vector<HttpResponse> send_concurrently(const std::vector<std::string>& base_urls, int count,
                                            const ConcurrentRequest& request);

}  // namespace squawk::testing
