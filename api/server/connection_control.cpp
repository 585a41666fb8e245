#include "api/server/connection_control.hpp"

namespace squawk::api {

namespace Http = Pistache::Http;

void replace_connection(Http::ResponseWriter& response, Http::ConnectionControl control) {
    response.headers().remove<Http::Header::Connection>();
    response.headers().add<Http::Header::Connection>(control);
}

void set_connection(const Http::Request& request, Http::ResponseWriter& response) {
    if (request.version() != Http::Version::Http11) return;
    const auto asked = request.headers().tryGet<Http::Header::Connection>();
    const bool close = asked && asked->control() == Http::ConnectionControl::Close;
    replace_connection(response,
                       close ? Http::ConnectionControl::Close : Http::ConnectionControl::KeepAlive);
}

}  // namespace squawk::api
