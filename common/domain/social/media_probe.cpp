#include "common/domain/social/media_probe.hpp"

#include "common/core/http/file_transfer.hpp"
#include "common/core/text/ascii.hpp"

#include <algorithm>
#include <charconv>

namespace squawk::social {
namespace {

std::optional<long long> digits(std::string_view s) {
    if (s.empty() || s.size() > 18 ||
        !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    long long n = 0;
    std::from_chars(s.data(), s.data() + s.size(), n);
    return n;
}

http::Request request_to(const std::string& method, const net::CheckedTarget& target,
                         const std::string& url, std::chrono::milliseconds timeout,
                         size_t max_response_bytes) {
    http::Request r;
    r.method = method;
    r.url = url;
    r.timeout = timeout;
    r.connect_to = target.connect_to();
    r.headers = {{"User-Agent", "Squawk-Media/1"}};
    r.max_response_bytes = max_response_bytes;
    return r;
}

ProbeFailure failure(bool permanent, std::string reason, long status = 0) {
    ProbeFailure f;
    f.permanent = permanent;
    f.reason = std::move(reason);
    f.http_status = status;
    return f;
}

// The failure an answer other than 2xx stands for.
ProbeFailure status_failure(const http::Response& r) {
    const std::string status = std::to_string(r.status);
    if (r.status >= 300 && r.status < 400)
        return failure(true,
                       "the media URL redirects (HTTP " + status + "); redirects are not followed",
                       r.status);
    if (r.status == 429 || r.status >= 500)
        return failure(false, "the media host answered HTTP " + status, r.status);
    return failure(true, "the media host answered HTTP " + status, r.status);
}

ProbeFailure unreachable(const http::Response& r) {
    return failure(false, r.timed_out ? "the media host did not answer in time"
                                      : "the media host could not be reached: " + r.error);
}

// HEAD is refused by some hosts (object stores that sign GET only, servers without HEAD).
bool head_refused(long status) {
    return status == 400 || status == 403 || status == 405 || status == 501;
}

}  // namespace

std::string media_type(std::string_view content_type) {
    const auto value = text::trim_blanks(content_type.substr(0, content_type.find(';')));
    const auto slash = value.find('/');
    if (slash == std::string_view::npos || slash == 0 || slash + 1 == value.size()) return {};
    if (!std::all_of(value.begin(), value.begin() + static_cast<long>(slash),
                     text::is_http_token_char) ||
        !std::all_of(value.begin() + static_cast<long>(slash) + 1, value.end(),
                     text::is_http_token_char))
        return {};
    return text::ascii_lowercase(value);
}

std::optional<long long> content_range_total(std::string_view content_range) {
    auto value = text::trim_blanks(content_range);
    if (!value.starts_with("bytes ")) return std::nullopt;
    value.remove_prefix(6);
    const auto slash = value.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    const auto range = value.substr(0, slash);
    const auto dash = range.find('-');
    if (range != "*" && (dash == std::string_view::npos || !digits(range.substr(0, dash)) ||
                         !digits(range.substr(dash + 1))))
        return std::nullopt;
    return digits(value.substr(slash + 1));
}

std::optional<long long> content_length(std::string_view value) {
    return digits(text::trim_blanks(value));
}

MediaProbe probe_media(http::Client& http, const std::string& url, const TargetCheck& check,
                       std::chrono::milliseconds timeout) {
    MediaProbe p;
    p.url = url;
    net::CheckedTarget target;
    try {
        target = check(url);
    } catch (const net::TargetRefused& e) {
        p.failure = failure(true, std::string("the media URL is refused: ") + e.what());
        return p;
    }
    // Only the headers matter; a host that ignores Range sends a body that is read and dropped.
    auto answer = http.send(request_to("HEAD", target, url, timeout, 1));
    if (answer.status == 0) {
        p.failure = unreachable(answer);
        return p;
    }
    const bool head_ok = answer.status >= 200 && answer.status < 300;
    // A zero length from HEAD is more often a server that does not compute it than an empty file.
    auto length =
        head_ok ? content_length(answer.header("content-length").value_or("")) : std::nullopt;
    if (length == 0) length.reset();
    if (!head_ok && !head_refused(answer.status)) {
        p.failure = status_failure(answer);
        return p;
    }
    if (!length) {
        auto get = request_to("GET", target, url, timeout, 1);
        get.headers.emplace_back("Range", "bytes=0-0");
        answer = http.send(std::move(get));
        if (answer.status == 0) {
            p.failure = unreachable(answer);
            return p;
        }
        if (answer.status < 200 || answer.status >= 300) {
            p.failure = status_failure(answer);
            return p;
        }
        p.bytes = answer.status == 206
                      ? content_range_total(answer.header("content-range").value_or(""))
                      : content_length(answer.header("content-length").value_or(""));
    } else {
        p.bytes = length;
    }
    p.content_type = media_type(answer.header("content-type").value_or(""));
    return p;
}

MediaDownload download_media(http::Client& http, const std::string& url, const TargetCheck& check,
                             std::chrono::milliseconds timeout, long long max_bytes,
                             std::optional<long long> expected_bytes) {
    MediaDownload d;
    net::CheckedTarget target;
    try {
        target = check(url);
    } catch (const net::TargetRefused& e) {
        d.failure = failure(true, std::string("the media URL is refused: ") + e.what());
        return d;
    }
    // One byte over the cap tells a body at the cap from a longer one that was cut.
    auto answer = http.send(
        request_to("GET", target, url, timeout, static_cast<size_t>(std::max(max_bytes, 0LL)) + 1));
    if (answer.status == 0) {
        d.failure = unreachable(answer);
        return d;
    }
    if (answer.status < 200 || answer.status >= 300) {
        d.failure = status_failure(answer);
        return d;
    }
    const auto got = static_cast<long long>(answer.body.size());
    if (got > max_bytes) {
        d.failure = failure(true, "the download is over " + std::to_string(max_bytes) + " bytes");
        return d;
    }
    if (expected_bytes && got != *expected_bytes) {
        d.failure = failure(true, "the download has " + std::to_string(got) +
                                      " bytes where the probe announced " +
                                      std::to_string(*expected_bytes));
        return d;
    }
    d.bytes = std::move(answer.body);
    return d;
}

std::optional<ProbeFailure> download_media_file(const std::string& url,
                                                const net::CheckedTarget& target,
                                                std::chrono::milliseconds timeout,
                                                long long max_bytes,
                                                const std::filesystem::path& path) {
    http::FileBodies files;
    files.download_to = path;
    files.max_download_bytes = max_bytes;
    const auto answer =
        http::send_with_files(request_to("GET", target, url, timeout, 64 * 1024), files);
    if (answer.status == 0) {
        // Over the bound is the file, not the host: asking again cannot help.
        if (answer.error.starts_with(http::kDownloadOverBound)) return failure(true, answer.error);
        return unreachable(answer);
    }
    if (answer.status < 200 || answer.status >= 300) return status_failure(answer);
    return std::nullopt;
}

}  // namespace squawk::social
