#include "tests/bench/support/bare_pistache.hpp"

#include <pistache/endpoint.h>
#include <pistache/http.h>

namespace squawk::bench {
namespace {

class StaticBodyHandler : public Pistache::Http::Handler {
  public:
    HTTP_PROTOTYPE(StaticBodyHandler)

    explicit StaticBodyHandler(std::shared_ptr<const std::string> body) : body_(std::move(body)) {}

    void onRequest(const Pistache::Http::Request& /*request*/,
                   Pistache::Http::ResponseWriter response) override {
        // wrk asks nothing of the connection: the keep-alive answer squawk-api gives it.
        response.headers().remove<Pistache::Http::Header::Connection>();
        response.headers().add<Pistache::Http::Header::Connection>(
            Pistache::Http::ConnectionControl::KeepAlive);
        response.send(Pistache::Http::Code::Ok, *body_, MIME(Application, Json));
    }

  private:
    std::shared_ptr<const std::string> body_;
};

}  // namespace

BarePistacheServer::BarePistacheServer(std::string json_body, int threads)
    : endpoint_(std::make_unique<Pistache::Http::Endpoint>(
          Pistache::Address("127.0.0.1", Pistache::Port(0)))) {
    endpoint_->init(Pistache::Http::Endpoint::options().threads(threads).flags(
        Pistache::Tcp::Options::ReuseAddr));
    endpoint_->setHandler(Pistache::Http::make_handler<StaticBodyHandler>(
        std::make_shared<const std::string>(std::move(json_body))));
    endpoint_->serveThreaded();
}

BarePistacheServer::~BarePistacheServer() {
    endpoint_->shutdown();
}

std::string BarePistacheServer::url() const {
    return "http://127.0.0.1:" + std::to_string(static_cast<int>(endpoint_->getPort())) +
           "/data.json";
}

}  // namespace squawk::bench
