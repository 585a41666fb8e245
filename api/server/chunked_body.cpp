#include "api/server/chunked_body.hpp"

#include <algorithm>

namespace squawk::api {
namespace {

// A chunk size of more hex digits than this could overflow; no upload comes near it.
constexpr int kMaxSizeDigits = 15;
constexpr size_t kMaxLineBytes = 4096;

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

size_t ChunkedBody::feed(std::string_view bytes,
                         const std::function<void(std::string_view)>& payload) {
    size_t i = 0;
    while (i < bytes.size() && state_ != State::done && state_ != State::failed) {
        const char c = bytes[i];
        switch (state_) {
            case State::size:
                if (const int v = hex_value(c); v >= 0) {
                    if (++size_digits_ > kMaxSizeDigits) {
                        state_ = State::failed;
                        break;
                    }
                    remaining_ = remaining_ * 16 + static_cast<unsigned>(v);
                } else if (size_digits_ > 0 && (c == ';' || c == ' ' || c == '\t')) {
                    state_ = State::extension;
                    line_bytes_ = 0;
                } else if (size_digits_ > 0 && c == '\r') {
                    state_ = State::size_lf;
                } else {
                    state_ = State::failed;
                }
                ++i;
                break;
            case State::extension:
                if (c == '\r')
                    state_ = State::size_lf;
                else if (++line_bytes_ > kMaxLineBytes || c == '\n')
                    state_ = State::failed;
                ++i;
                break;
            case State::size_lf:
                if (c != '\n') {
                    state_ = State::failed;
                    break;
                }
                ++i;
                size_digits_ = 0;
                if (remaining_ == 0) {
                    state_ = State::trailer;
                    line_bytes_ = 0;
                    trailer_line_empty_ = true;
                } else {
                    state_ = State::data;
                }
                break;
            case State::data: {
                const size_t n =
                    static_cast<size_t>(std::min<unsigned long long>(remaining_, bytes.size() - i));
                payload(bytes.substr(i, n));
                remaining_ -= n;
                i += n;
                if (remaining_ == 0) state_ = State::data_cr;
                break;
            }
            case State::data_cr:
                state_ = c == '\r' ? State::data_lf : State::failed;
                ++i;
                break;
            case State::data_lf:
                state_ = c == '\n' ? State::size : State::failed;
                ++i;
                break;
            case State::trailer:
                if (c == '\r') {
                    state_ = State::trailer_lf;
                } else if (++line_bytes_ > kMaxLineBytes || c == '\n') {
                    state_ = State::failed;
                } else {
                    trailer_line_empty_ = false;
                }
                ++i;
                break;
            case State::trailer_lf:
                if (c != '\n') {
                    state_ = State::failed;
                    break;
                }
                ++i;
                if (trailer_line_empty_) {
                    state_ = State::done;
                } else {
                    state_ = State::trailer;
                    line_bytes_ = 0;
                    trailer_line_empty_ = true;
                }
                break;
            case State::done:
            case State::failed:
                break;
        }
    }
    return i;
}

}  // namespace squawk::api
