#include "common/core/http/multipart.hpp"

#include "common/core/crypto/crypto.hpp"

namespace squawk::http {
namespace {

// A quoted-string of a Content-Disposition parameter, escaped as browsers do (WHATWG HTML): a
// quote or line break in a name must not end the parameter or the header.
std::string quoted(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"')
            out += "%22";
        else if (c == '\r')
            out += "%0D";
        else if (c == '\n')
            out += "%0A";
        else
            out += c;
    }
    return out + "\"";
}

}  // namespace

Multipart::Multipart() : boundary_("squawk-" + crypto::hex(crypto::random_bytes(16))) {}

void Multipart::open_part(std::string_view name) {
    body_ += "--" + boundary_ + "\r\nContent-Disposition: form-data; name=" + quoted(name);
}

void Multipart::field(std::string_view name, std::string_view value) {
    open_part(name);
    body_ += "\r\n\r\n";
    body_ += value;
    body_ += "\r\n";
}

void Multipart::open_file_part(std::string_view name, std::string_view filename,
                               std::string_view content_type) {
    open_part(name);
    body_ += "; filename=" + quoted(filename) + "\r\nContent-Type: ";
    body_ += content_type.empty() ? std::string_view("application/octet-stream") : content_type;
    body_ += "\r\n\r\n";
}

void Multipart::file(std::string_view name, std::string_view filename,
                     std::string_view content_type, std::string_view bytes) {
    open_file_part(name, filename, content_type);
    body_ += bytes;
    body_ += "\r\n";
}

std::string Multipart::content_type() const {
    return "multipart/form-data; boundary=" + boundary_;
}

std::string Multipart::finish() && {
    body_ += "--" + boundary_ + "--\r\n";
    return std::move(body_);
}

Multipart::AroundFile Multipart::finish_around_file(std::string_view name,
                                                    std::string_view filename,
                                                    std::string_view content_type) && {
    open_file_part(name, filename, content_type);
    return {std::move(body_), "\r\n--" + boundary_ + "--\r\n"};
}

}  // namespace squawk::http
