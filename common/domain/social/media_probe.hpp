// Looks at one media URL before a platform fetches it: the target check, then a HEAD (or a
// one-byte ranged GET) to the checked address, giving its content type and size or why not; and
// downloads it the same way when the platform takes it only as an upload.
#pragma once

#include "common/core/http/http_client.hpp"
#include "common/core/net/target_url.hpp"
#include "common/domain/social/connector.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace squawk::social {

struct ProbeFailure {
    // Permanent: asking again cannot help (4xx, a refused target, a redirect). Otherwise the
    // host may answer later (5xx, 429, timeout, refused connection).
    bool permanent = true;
    std::string reason;
    long http_status = 0;  // 0 when no answer arrived
};

struct MediaProbe {
    std::string url;
    std::string content_type;        // media type in lower case without parameters; may be ""
    std::optional<long long> bytes;  // nothing when the host does not say
    std::optional<ProbeFailure> failure;
};

// Resolves and checks `url` (net::check_target with the configured allow_private). DNS blocks:
// callers on fibers pass one that runs it off the fiber.

// Probes `url` through `http`, connecting only to the address `check` approved.
MediaProbe probe_media(http::Client& http, const std::string& url, const TargetCheck& check,
                       std::chrono::milliseconds timeout);

struct MediaDownload {
    std::string bytes;
    std::optional<ProbeFailure> failure;
};

// GETs `url` from the address `check` approves. A body over `max_bytes`, or of another size than
// `expected_bytes` (the probe's, when it gave one), is a permanent failure: the file changed
// since the probe or is not what the plan was made for.
MediaDownload download_media(http::Client& http, const std::string& url, const TargetCheck& check,
                             std::chrono::milliseconds timeout, long long max_bytes,
                             std::optional<long long> expected_bytes);

// GETs `url` from the address `target` approved into the file `path`, streamed, failing once it
// passes `max_bytes`; `timeout` bounds a stall, not the whole download. Blocks the calling
// thread: workers run it on their blocking executor.
std::optional<ProbeFailure> download_media_file(const std::string& url,
                                                const net::CheckedTarget& target,
                                                std::chrono::milliseconds timeout,
                                                long long max_bytes,
                                                const std::filesystem::path& path);

// The media type of a Content-Type value ("image/png; q=1" -> "image/png"), lower case; "" when
// it is not type/subtype.
std::string media_type(std::string_view content_type);
// The complete length of a Content-Range value ("bytes 0-0/7000000" -> 7000000); nothing when
// it is unknown ("*") or malformed.
std::optional<long long> content_range_total(std::string_view content_range);
// A Content-Length value; nothing unless it is only digits and fits.
std::optional<long long> content_length(std::string_view value);

}  // namespace squawk::social
