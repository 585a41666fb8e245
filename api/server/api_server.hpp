// squawk-api as a daemon service: the shared pools, the route table and the Pistache endpoint
// that serves it on the configured address (port 0: any free port), with the request log writer.
#pragma once

#include "api/server/services.hpp"
#include "api/server/upload_receiver.hpp"
#include "common/core/daemon/service.hpp"

#include <memory>

namespace Pistache::Http {
class Endpoint;
}

namespace squawk::api {

class ApiServer : public daemon::Service {
  public:
    explicit ApiServer(const config::Config& config);
    ~ApiServer() override;

    // Throws when it cannot listen.
    void start() override;
    void stop() override;
    std::optional<int> listen_port() const override;
    std::string status() const override;

  private:
    // Creates the incoming folder and clears what a dead process left there.
    UploadLimits upload_limits() const;

    const config::Config& config_;
    db::MysqlPool mysql_;
    redis::RedisPool redis_;
    Services services_;
    std::unique_ptr<Pistache::Http::Endpoint> endpoint_;
    bool serving_ = false;
};

}  // namespace squawk::api
