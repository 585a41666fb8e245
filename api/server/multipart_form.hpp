// Reads multipart/form-data request bodies (RFC 7578 on RFC 2046) from untrusted clients as they
// arrive: the boundary from the Content-Type, then each part's few headers and its bytes, handed
// on piece by piece, so an uploaded file is never held whole in memory.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace squawk::api {

// Bounds on what a form may carry besides its bytes; a form past them is malformed.
inline constexpr size_t kMaxFormParts = 32;
inline constexpr size_t kMaxPartHeaderBytes = 8 * 1024;
inline constexpr size_t kMaxBoundaryChars = 70;  // RFC 2046

struct FormPartHead {
    std::string name;                     // from Content-Disposition
    std::optional<std::string> filename;  // from Content-Disposition, when given
    std::string content_type;             // as the client declared it, or empty
};

// Receives a form's parts in order: a part's head, its bytes in any number of pieces, its end.
class FormSink {
  public:
    virtual ~FormSink() = default;
    virtual void part_begins(const FormPartHead& head) = 0;
    virtual void part_data(std::string_view bytes) = 0;
    virtual void part_ends() = 0;
};

// The boundary parameter of a multipart/form-data Content-Type (any letter case, quoted or not),
// or nothing when the type is another or the boundary is missing or not RFC 2046's.
std::optional<std::string> form_boundary(std::string_view content_type);

// The parts between the delimiters of `boundary`, however the body is cut into pieces: preamble
// and epilogue ignored; each part needs a Content-Disposition of form-data with a name. Besides
// the parts' bytes it holds at most a part's headers and a delimiter's length.
class FormReader {
  public:
    FormReader(std::string_view boundary, FormSink& sink);

    // The next bytes of the body; false once the form is malformed (error() says why), after
    // which nothing more reaches the sink.
    bool feed(std::string_view bytes);
    // The body ended: false when the form was malformed or not closed by its boundary.
    bool finish();
    const std::string& error() const { return error_; }

  private:
    enum class State { preamble, after_delimiter, headers, body, epilogue, failed };

    bool fail(std::string reason);
    // Works through pending_ as far as it can; false when the form is malformed.
    bool advance();

    FormSink& sink_;
    std::string delimiter_;  // CRLF "--" boundary
    std::string pending_;    // bytes not yet handed on or discarded
    State state_ = State::preamble;
    size_t parts_ = 0;
    std::string error_;
};

}  // namespace squawk::api
