// A bare TCP connection to a server under test, for what an HTTP library hides: a body sent in
// parts or not at all, an interim 100 Continue, several requests on one connection, a client
// that hangs up halfway.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace squawk::testing {

class RawConnection {
  public:
    // `base_url` as Stack::base_url() gives it (http://127.0.0.1:PORT); throws when it cannot
    // connect. A receive buffer in bytes, when given, keeps the server's sends short.
    explicit RawConnection(const std::string& base_url, int receive_buffer_bytes = 0);
    ~RawConnection();
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;

    void send(std::string_view bytes);
    // What the server sent until `marker` arrived (included) or the time ran out; what arrived
    // after the marker is kept for the next read.
    std::string read_until(std::string_view marker,
                           std::chrono::milliseconds timeout = std::chrono::seconds(10));
    // One whole response with a Content-Length body, status line to body.
    std::string read_response(std::chrono::milliseconds timeout = std::chrono::seconds(10));
    // What the server sent until it closed the connection, or until the time ran out.
    struct Ending {
        std::string received;
        bool closed = false;
    };
    Ending read_to_close(std::chrono::milliseconds timeout);
    void close();

  private:
    enum class Read { data, closed, timed_out };
    // Waits until `deadline` for the next bytes and keeps them in received_.
    Read receive(std::chrono::steady_clock::time_point deadline);

    int fd_ = -1;
    std::string received_;
};

}  // namespace squawk::testing
