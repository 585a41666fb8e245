// Pistache with nothing of Squawk in it but the keep-alive answer every route gives: one handler
// that answers every request with the same JSON body. The request path bench runs it beside
// squawk-api and nginx, on the same reactor threads as squawk-api, to measure the ceiling the HTTP
// framework itself sets: what a request costs before any routing, authentication, logging or
// rendering.
#pragma once

#include <memory>
#include <string>

namespace Pistache::Http {
class Endpoint;
}

namespace squawk::bench {

class BarePistacheServer {
  public:
    BarePistacheServer(std::string json_body, int threads);
    ~BarePistacheServer();
    BarePistacheServer(const BarePistacheServer&) = delete;
    BarePistacheServer& operator=(const BarePistacheServer&) = delete;

    std::string url() const;

  private:
    std::unique_ptr<Pistache::Http::Endpoint> endpoint_;
};

}  // namespace squawk::bench
