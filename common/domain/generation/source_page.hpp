// The page an article is grounded on (POST /articles/generate with source_url): fetched under the
// rules every outgoing call to a user's URL follows (net::check_target on each hop, the checked
// address only, a few redirects, a size cap, a deadline), and read as text (html_text).
#pragma once

#include "common/core/http/http_client.hpp"
#include "common/core/net/target_url.hpp"

#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>

namespace squawk::generation {

inline constexpr size_t kMaxSourceUrlChars = 2000;

struct SourcePageLimits {
    size_t max_bytes = 2 * 1024 * 1024;
    std::chrono::milliseconds timeout{15000};  // for the whole fetch, redirects included
    int max_redirects = 3;
    size_t max_text_bytes = 20000;
};

// Why the page cannot ground the article; what() is shown in the job's error.
class SourceUnreachable : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Resolves and checks a URL (net::check_target with the configured allow_private). DNS blocks:
// callers on fibers pass one that runs it off the fiber.
using SourceTargetCheck = std::function<net::CheckedTarget(const std::string& url)>;

// The readable text of the text/html or text/plain page at `url`. Throws SourceUnreachable.
std::string fetch_source_text(http::Client& client, const std::string& url,
                              const SourceTargetCheck& check, const SourcePageLimits& limits);

// Where a redirect's Location leads from `base` (absolute, scheme-relative, absolute-path or
// relative-path references); throws net::TargetRefused when `base` is no usable URL.
std::string resolve_location(const std::string& base, const std::string& location);

}  // namespace squawk::generation
