#include "common/domain/generation/source_page.hpp"

#include "common/core/text/ascii.hpp"
#include "common/domain/generation/html_text.hpp"

#include <charconv>

namespace squawk::generation {
namespace {

using Clock = std::chrono::steady_clock;

// "text/HTML; charset=utf-8" -> "text/html".
std::string media_type(std::string_view content_type) {
    return text::ascii_lowercase(text::trim_blanks(content_type.substr(0, content_type.find(';'))));
}

std::string origin_of(const net::ParsedUrl& url) {
    const bool default_port =
        (url.scheme == "https" && url.port == 443) || (url.scheme == "http" && url.port == 80);
    const std::string host =
        url.host.find(':') == std::string::npos ? url.host : "[" + url.host + "]";
    return url.scheme + "://" + host + (default_port ? "" : ":" + std::to_string(url.port));
}

std::optional<long long> whole_number(const std::string& text) {
    long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return value;
}

http::Request page_request(const std::string& url, const net::CheckedTarget& target,
                           std::chrono::milliseconds timeout, size_t max_bytes) {
    http::Request request;
    request.url = url;
    request.connect_to = target.connect_to();
    request.headers = {{"Accept", "text/html, text/plain;q=0.9"},
                       {"User-Agent", "Squawk-Source/1"}};
    request.timeout = timeout;
    // One byte over the cap tells a page at the cap from a longer one that was cut.
    request.max_response_bytes = max_bytes + 1;
    return request;
}

}  // namespace

std::string resolve_location(const std::string& base, const std::string& location) {
    if (location.find("://") != std::string::npos) return location;
    const net::ParsedUrl from = net::parse_url(base);
    if (location.starts_with("//")) return from.scheme + ":" + location;
    if (location.starts_with("/")) return origin_of(from) + location;
    const std::string path = from.target.substr(0, from.target.find('?'));
    return origin_of(from) + path.substr(0, path.rfind('/') + 1) + location;
}

std::string fetch_source_text(http::Client& client, const std::string& url,
                              const SourceTargetCheck& check, const SourcePageLimits& limits) {
    const auto deadline = Clock::now() + limits.timeout;
    std::string current = url;
    for (int hop = 0;; ++hop) {
        net::CheckedTarget target;
        try {
            target = check(current);
        } catch (const net::TargetRefused& e) {
            throw SourceUnreachable(std::string("the source URL is refused: ") + e.what());
        }
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left <= std::chrono::milliseconds(0))
            throw SourceUnreachable("the source page did not answer in time");
        const http::Response answer =
            client.send(page_request(current, target, left, limits.max_bytes));
        if (answer.status == 0)
            throw SourceUnreachable(answer.timed_out
                                        ? "the source page did not answer in time"
                                        : "the source page could not be reached: " + answer.error);
        if (answer.status >= 300 && answer.status < 400) {
            const auto location = answer.header("location");
            if (!location || location->empty())
                throw SourceUnreachable("the source page redirects without a Location");
            if (hop == limits.max_redirects)
                throw SourceUnreachable("the source page redirects more than " +
                                        std::to_string(limits.max_redirects) + " times");
            try {
                current = resolve_location(current, *location);
            } catch (const net::TargetRefused& e) {
                throw SourceUnreachable(std::string("the source URL is refused: ") + e.what());
            }
            continue;
        }
        if (answer.status < 200 || answer.status >= 300)
            throw SourceUnreachable("the source page answered HTTP " +
                                    std::to_string(answer.status));
        const auto announced = answer.header("content-length");
        const auto length = announced ? whole_number(*announced) : std::nullopt;
        if (answer.body.size() > limits.max_bytes ||
            (length && *length > static_cast<long long>(limits.max_bytes)))
            throw SourceUnreachable("the source page is over " + std::to_string(limits.max_bytes) +
                                    " bytes");
        const auto content_type = answer.header("content-type");
        const std::string type =
            media_type(content_type ? std::string_view(*content_type) : std::string_view());
        std::string text;
        if (type == "text/html" || type == "application/xhtml+xml")
            text = html_text(answer.body, limits.max_text_bytes);
        else if (type == "text/plain")
            text = plain_text(answer.body, limits.max_text_bytes);
        else
            throw SourceUnreachable("the source page is " +
                                    (type.empty() ? std::string("of no stated type") : type) +
                                    ", not text/html or text/plain");
        if (text.empty()) throw SourceUnreachable("the source page has no readable text");
        return text;
    }
}

}  // namespace squawk::generation
