// The answer to one request, written as HTTP/1.x bytes by hand and sent through the
// connection writer. Pistache's ResponseWriter made an object of every header and serialized
// them through an ostream; under GET /v1/me that and its queued write cost more of squawk-api's
// CPU than everything Squawk does for the request (docs/profiling.md).
#pragma once

#include <pistache/http_defs.h>
#include <pistache/peer.h>
#include <pistache/transport.h>

#include <memory>
#include <string>
#include <string_view>

namespace squawk::api {

class Answer {
  public:
    Answer(Pistache::Tcp::Transport& transport, std::shared_ptr<Pistache::Tcp::Peer> peer,
           Pistache::Http::Version version, Pistache::Http::ConnectionControl connection);

    // Written in the order added. A CR or LF in a name or value becomes a space: no value can
    // start a header or an answer of its own.
    void add_header(std::string_view name, std::string_view value);
    // The client is not trusted with another request on this connection.
    void close_connection() { connection_ = Pistache::Http::ConnectionControl::Close; }

    void send(int status, std::string_view body = {}, std::string_view content_type = {});
    // The whole file, with sendfile.
    void send_file(const std::string& path, std::string_view content_type);

  private:
    std::string head(int status, size_t content_length, std::string_view content_type) const;

    Pistache::Tcp::Transport* transport_;
    std::shared_ptr<Pistache::Tcp::Peer> peer_;
    Pistache::Http::Version version_;
    Pistache::Http::ConnectionControl connection_;
    std::string headers_;  // "Name: value\r\n" lines
};

}  // namespace squawk::api
