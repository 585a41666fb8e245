#include "tests/support/concurrent_requests.hpp"

#include "tests/support/answer_log.hpp"

#include <latch>
#include <thread>

namespace squawk::testing {

std::vector<HttpResponse> send_concurrently(const std::vector<std::string>& base_urls, int count,
                                            const ConcurrentRequest& request) {
    std::vector<HttpResponse> responses(static_cast<size_t>(count));
    std::latch ready(count);
    std::vector<std::thread> threads;
    threads.reserve(static_cast<size_t>(count));
    Headers headers = request.headers;
    if (request.body) headers.emplace("Content-Type", "application/json");
    for (int i = 0; i < count; ++i) {
        threads.emplace_back([&, i] {
            HttpClient client(base_urls[static_cast<size_t>(i) % base_urls.size()]);
            ready.arrive_and_wait();
            try {
                responses[static_cast<size_t>(i)] = client.send(
                    request.method, request.path, request.body, headers, std::chrono::seconds(30));
            } catch (const std::runtime_error&) {
                responses[static_cast<size_t>(i)].status = 0;
            }
        });
    }
    for (auto& t : threads) t.join();
    for (const auto& r : responses)
        if (r.status != 0) log_answer(request.method, request.path, r);
    return responses;
}

}  // namespace squawk::testing
