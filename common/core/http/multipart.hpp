// Builds a multipart/form-data body (RFC 7578) for uploads to platform APIs: text fields and
// files, under a boundary drawn from the CSPRNG so that no file's bytes can contain it by chance.
#pragma once

#include <string>
#include <string_view>

namespace squawk::http {

class Multipart {
  public:
    Multipart();

    void field(std::string_view name, std::string_view value);
    void file(std::string_view name, std::string_view filename, std::string_view content_type,
              std::string_view bytes);

    // The Content-Type header value naming the boundary.
    std::string content_type() const;
    // The complete body; the builder is spent afterwards.
    std::string finish() &&;

    // The body of a form whose last part is a file that streams from disk rather than from
    // memory (http::FileBodies): what goes before the file's bytes and what after them. The
    // builder is spent afterwards.
    struct AroundFile {
        std::string head;
        std::string tail;
    };
    AroundFile finish_around_file(std::string_view name, std::string_view filename,
                                  std::string_view content_type) &&;

    const std::string& boundary() const { return boundary_; }

  private:
    void open_part(std::string_view name);
    void open_file_part(std::string_view name, std::string_view filename,
                        std::string_view content_type);

    std::string boundary_;
    std::string body_;
};

}  // namespace squawk::http
