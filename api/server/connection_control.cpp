#include "api/server/connection_control.hpp"

#include "common/core/text/ascii.hpp"

namespace squawk::api {

namespace Http = Pistache::Http;

Http::ConnectionControl connection_fate(const RequestHead& head) {
    const auto asked = head.field("Connection");
    const auto asks = [&](std::string_view option) {
        return asked && text::equals_ignoring_case(*asked, option);
    };
    if (head.version == "HTTP/1.0")
        return asks("keep-alive") ? Http::ConnectionControl::KeepAlive
                                  : Http::ConnectionControl::Close;
    return asks("close") ? Http::ConnectionControl::Close : Http::ConnectionControl::KeepAlive;
}

}  // namespace squawk::api
