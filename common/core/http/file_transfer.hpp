// Requests whose body is a file on disk, or whose answer goes to one: object store uploads and
// downloads of hundreds of megabytes, streamed without holding them in memory. The transfer runs
// on the calling thread, which it blocks, with the shared Request and Response types; the Client
// keeps its multi loop for the many small requests.
#pragma once

#include "common/core/http/http_client.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace squawk::http {

struct FileBodies {
    // The request body is this file's content (sent with its Content-Length); request.body is
    // ignored then.
    std::optional<std::filesystem::path> upload_from;
    // Sent before and after upload_from's content in the same body, so that a multipart form
    // whose file part streams from disk (Multipart::finish_around_file) is one request.
    std::string upload_head = {};
    std::string upload_tail = {};
    // A 2xx answer's body is written to this file (created or truncated) instead of
    // response.body; any other answer's body lands in response.body as usual.
    std::optional<std::filesystem::path> download_to;
    // The download ends as failed once it passes this many bytes (a file from a host nobody
    // vouches for); 0: no bound.
    long long max_download_bytes = 0;
};

// How the error of a download stopped at max_download_bytes begins.
inline constexpr std::string_view kDownloadOverBound = "the download is over ";

// Runs `request` to its end. With a file body the transfer may take as long as it needs while
// bytes keep moving: it fails only after request.timeout with no progress (or to connect).
// Without one, request.timeout bounds the whole request as in Client. A file that cannot be
// opened or written, or a download over max_download_bytes, fails the request with `error` set
// and status 0. request.connect_to pins the address as in Client.
Response send_with_files(const Request& request, const FileBodies& files);

}  // namespace squawk::http
