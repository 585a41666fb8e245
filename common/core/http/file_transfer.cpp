#include "common/core/http/file_transfer.hpp"

#include "common/core/http/response_headers.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace squawk::http {
namespace {

struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

struct EasyCleanup {
    void operator()(CURL* easy) const { curl_easy_cleanup(easy); }
};

struct ListCleanup {
    void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

struct Transfer {
    CURL* easy = nullptr;
    const Request* request = nullptr;
    Response response;
    std::FILE* upload = nullptr;
    // The request body is head, then the file, then tail; each view shrinks as it is sent.
    std::string_view head;
    std::string_view tail;
    bool file_done = false;
    std::optional<std::filesystem::path> download_path;
    File download;
    long long max_download_bytes = 0;
    long long downloaded = 0;
    bool write_failed = false;
    bool too_large = false;
};

// Serves `text` from its front into `buffer`, shortening it; 0 once it is empty.
size_t take(std::string_view& text, char* buffer, size_t room) {
    const size_t n = std::min(room, text.size());
    std::copy_n(text.data(), n, buffer);
    text.remove_prefix(n);
    return n;
}

size_t on_read(char* buffer, size_t size, size_t count, void* user) {
    auto* t = static_cast<Transfer*>(user);
    const size_t room = size * count;
    if (!t->head.empty()) return take(t->head, buffer, room);
    if (!t->file_done) {
        const size_t n = std::fread(buffer, 1, room, t->upload);
        if (n == 0 && std::ferror(t->upload)) return CURL_READFUNC_ABORT;
        if (n > 0) return n;
        t->file_done = true;
    }
    return take(t->tail, buffer, room);
}

size_t on_transfer_body(char* data, size_t size, size_t count, void* user) {
    auto* t = static_cast<Transfer*>(user);
    const size_t n = size * count;
    long status = 0;
    curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
    if (t->download_path && status >= 200 && status < 300) {
        t->downloaded += static_cast<long long>(n);
        if (t->max_download_bytes > 0 && t->downloaded > t->max_download_bytes) {
            t->too_large = true;
            return 0;  // ends the transfer
        }
        if (!t->download) t->download.reset(std::fopen(t->download_path->c_str(), "wb"));
        if (!t->download || std::fwrite(data, 1, n, t->download.get()) != n) {
            t->write_failed = true;
            return 0;  // ends the transfer
        }
        return n;
    }
    const size_t limit = t->request->max_response_bytes;
    const size_t room = limit - std::min(limit, t->response.body.size());
    t->response.body.append(data, std::min(n, room));
    return n;
}

size_t on_transfer_header(char* data, size_t size, size_t count, void* user) {
    auto* t = static_cast<Transfer*>(user);
    const size_t n = size * count;
    add_header_line(std::string_view(data, n), t->response.headers);
    return n;
}

Response failed(std::string error) {
    Response r;
    r.error = std::move(error);
    return r;
}

}  // namespace

Response send_with_files(const Request& request, const FileBodies& files) {
    std::unique_ptr<CURL, EasyCleanup> easy(curl_easy_init());
    if (!easy) return failed("cannot start a transfer");
    Transfer t;
    t.easy = easy.get();
    t.request = &request;
    t.download_path = files.download_to;
    t.max_download_bytes = files.max_download_bytes;

    File upload;
    curl_off_t upload_size = 0;
    if (files.upload_from) {
        std::error_code ec;
        const auto bytes = std::filesystem::file_size(*files.upload_from, ec);
        upload.reset(std::fopen(files.upload_from->c_str(), "rb"));
        if (ec || !upload) return failed("cannot read " + files.upload_from->string());
        upload_size =
            static_cast<curl_off_t>(bytes + files.upload_head.size() + files.upload_tail.size());
        t.upload = upload.get();
        t.head = files.upload_head;
        t.tail = files.upload_tail;
    }

    CURL* e = easy.get();
    const long timeout_ms = static_cast<long>(request.timeout.count());
    curl_easy_setopt(e, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    std::unique_ptr<curl_slist, ListCleanup> connect_to;
    if (!request.connect_to.empty()) {
        connect_to.reset(curl_slist_append(nullptr, ("::" + request.connect_to).c_str()));
        curl_easy_setopt(e, CURLOPT_CONNECT_TO, connect_to.get());
    }
    if (files.upload_from || files.download_to) {
        // Less than a byte a second for the whole timeout: stalled, whatever the size.
        curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, std::max(1L, timeout_ms / 1000));
    } else {
        curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, timeout_ms);
    }
    if (files.upload_from) {
        curl_easy_setopt(e, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(e, CURLOPT_READFUNCTION, on_read);
        curl_easy_setopt(e, CURLOPT_READDATA, &t);
        curl_easy_setopt(e, CURLOPT_INFILESIZE_LARGE, upload_size);
        curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    } else if (request.method == "GET") {
        curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
    } else if (request.method == "HEAD") {
        curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
    } else {
        curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, request.method.c_str());
        curl_easy_setopt(e, CURLOPT_POSTFIELDS, request.body.data());
        curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE,
                         static_cast<curl_off_t>(request.body.size()));
    }
    std::unique_ptr<curl_slist, ListCleanup> headers;
    std::string line;
    for (const auto& [name, value] : request.headers) {
        line.assign(name).append(": ").append(value);
        headers.reset(curl_slist_append(headers.release(), line.c_str()));
    }
    // Without this curl waits for 100 Continue before sending larger bodies.
    headers.reset(curl_slist_append(headers.release(), "Expect:"));
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_transfer_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_transfer_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, &t);

    const auto started = std::chrono::steady_clock::now();
    const CURLcode result = curl_easy_perform(e);
    t.response.duration = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - started);
    long request_bytes = 0;
    curl_easy_getinfo(e, CURLINFO_REQUEST_SIZE, &request_bytes);
    t.response.request_sent = request_bytes > 0;
    // An empty 2xx body still leaves the file it promised.
    if (result == CURLE_OK && files.download_to && !t.download) {
        long status = 0;
        curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
        if (status >= 200 && status < 300)
            t.download.reset(std::fopen(files.download_to->c_str(), "wb"));
        t.write_failed = status >= 200 && status < 300 && !t.download;
    }
    if (t.download && std::fclose(t.download.release()) != 0) t.write_failed = true;
    if (t.too_large) {
        t.response.status = 0;
        t.response.error =
            std::string(kDownloadOverBound) + std::to_string(files.max_download_bytes) + " bytes";
    } else if (t.write_failed) {
        t.response.status = 0;
        t.response.error = "cannot write " + files.download_to->string();
    } else if (result == CURLE_OK) {
        curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &t.response.status);
    } else {
        t.response.status = 0;
        t.response.timed_out = result == CURLE_OPERATION_TIMEDOUT;
        t.response.error = curl_easy_strerror(result);
    }
    return std::move(t.response);
}

}  // namespace squawk::http
