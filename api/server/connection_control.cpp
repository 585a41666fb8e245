#include "api/server/connection_control.hpp"

namespace squawk::api {

namespace Http = Pistache::Http;

Http::ConnectionControl connection_fate(const Http::Request& request) {
    const auto asked = request.headers().tryGet<Http::Header::Connection>();
    if (request.version() != Http::Version::Http11)
        return asked ? asked->control() : Http::ConnectionControl::Close;
    return asked && asked->control() == Http::ConnectionControl::Close
               ? Http::ConnectionControl::Close
               : Http::ConnectionControl::KeepAlive;
}

}  // namespace squawk::api
