// Reads multipart/form-data request bodies (RFC 7578 on RFC 2046) from untrusted clients: the
// boundary from the Content-Type, then each part's few headers and its bytes. Part bodies are
// views into the request body, so an uploaded file is never copied while it is parsed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::api {

// Bounds on what a form may carry besides its bytes; a form past them is malformed.
inline constexpr size_t kMaxFormParts = 32;
inline constexpr size_t kMaxPartHeaderBytes = 8 * 1024;
inline constexpr size_t kMaxBoundaryChars = 70;  // RFC 2046

struct FormPart {
    std::string name;                     // from Content-Disposition
    std::optional<std::string> filename;  // from Content-Disposition, when given
    std::string content_type;             // as the client declared it, or empty
    std::string_view body;                // into the parsed body
};

struct ParsedForm {
    std::vector<FormPart> parts;
    std::string error;  // why the body is not a form; empty when it is

    // The first part named `name`.
    const FormPart* part(std::string_view name) const;
};

// The boundary parameter of a multipart/form-data Content-Type (any letter case, quoted or not),
// or nothing when the type is another or the boundary is missing or not RFC 2046's.
std::optional<std::string> form_boundary(std::string_view content_type);

// The parts of `body` between the delimiters of `boundary`: preamble and epilogue ignored; each
// part needs a Content-Disposition of form-data with a name. The result's views live as long as
// `body`.
ParsedForm parse_form(std::string_view body, std::string_view boundary);

}  // namespace squawk::api
