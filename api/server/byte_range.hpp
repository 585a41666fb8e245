// The Range request header of file downloads (RFC 9110 section 14): one byte range, so a
// browser can seek in a video. A pure function of untrusted text (it has a fuzz target).
#pragma once

#include <optional>
#include <string_view>

namespace squawk::api {

struct ByteRangeAnswer {
    enum class Kind {
        whole,          // no usable Range header: 200 with the whole file
        partial,        // 206 with bytes first..last (inclusive) and Content-Range
        unsatisfiable,  // 416 with Content-Range: bytes */size
    };
    Kind kind = Kind::whole;
    long long first = 0;
    long long last = 0;
};

// What to answer a Range header for a file of `size` bytes. "bytes=a-b", "bytes=a-" and
// "bytes=-n" are served; a header of another unit, of several ranges or of bad syntax is
// ignored, as RFC 9110 lets a server do, and the whole file is sent. A range starting at or past
// the end, or a suffix of zero bytes, is unsatisfiable. A partial answer is at most
// `max_length` bytes long: a client that asked for more gets the start of its range, which the
// Content-Range states, and asks again from there.
ByteRangeAnswer resolve_byte_range(std::optional<std::string_view> header, long long size,
                                   long long max_length);

}  // namespace squawk::api
