// The chunked transfer coding of a request body (RFC 9112 section 7.1) read as it arrives: where
// the body ends on the connection and the payload inside it. Chunk extensions and trailer fields
// are skipped.
#pragma once

#include <functional>
#include <string_view>

namespace squawk::api {

class ChunkedBody {
  public:
    // Reads from `bytes` up to the end of the body at most, handing each piece of payload to
    // `payload`; how many bytes it read. Once done() or failed() it reads nothing more.
    size_t feed(std::string_view bytes, const std::function<void(std::string_view)>& payload);

    bool done() const { return state_ == State::done; }
    bool failed() const { return state_ == State::failed; }

  private:
    enum class State {
        size,
        extension,
        size_lf,
        data,
        data_cr,
        data_lf,
        trailer,
        trailer_lf,
        done,
        failed
    };

    State state_ = State::size;
    unsigned long long remaining_ = 0;  // payload left in the current chunk
    int size_digits_ = 0;
    size_t line_bytes_ = 0;  // of the extension or trailer line being skipped
    bool trailer_line_empty_ = true;
};

}  // namespace squawk::api
