#include "common/extensions/platforms/bluesky/link_card.hpp"

#include "common/core/net/target_url.hpp"
#include "common/core/text/ascii.hpp"
#include "common/domain/generation/source_page.hpp"
#include "common/extensions/platforms/bluesky/page_meta.hpp"

namespace squawk::social::bluesky {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kMaxRedirects = 3;
// The head, where the title and description are, comes first; the rest is read and dropped.
constexpr size_t kMaxPageBytes = 256 * 1024;

bool is_html(const http::Response& response) {
    const auto type = response.header("content-type");
    if (!type) return false;
    const auto media_type = text::trim_blanks(std::string_view(*type).substr(0, type->find(';')));
    return text::equals_ignoring_case(media_type, "text/html") ||
           text::equals_ignoring_case(media_type, "application/xhtml+xml");
}

// The page at `url` after its redirects, when it answers HTML by `deadline`.
std::optional<std::string> fetch_page(http::Client& http, std::string url,
                                      Clock::time_point deadline, const TargetCheck& check) {
    for (int hop = 0; hop <= kMaxRedirects; ++hop) {
        http::Request request;
        try {
            request.connect_to = check(url).connect_to();
        } catch (const net::TargetRefused&) {
            return std::nullopt;
        }
        request.timeout =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (request.timeout <= std::chrono::milliseconds(0)) return std::nullopt;
        request.url = url;
        request.headers = {{"Accept", "text/html, application/xhtml+xml;q=0.9"},
                           {"User-Agent", "Squawk-LinkCard/1"}};
        request.max_response_bytes = kMaxPageBytes;
        const auto answer = http.send(std::move(request));
        if (answer.status >= 300 && answer.status < 400) {
            const auto location = answer.header("location");
            if (!location || location->empty()) return std::nullopt;
            try {
                url = generation::resolve_location(url, *location);
            } catch (const net::TargetRefused&) {
                return std::nullopt;
            }
            continue;
        }
        if (answer.status < 200 || answer.status >= 300 || !is_html(answer)) return std::nullopt;
        return answer.body;
    }
    return std::nullopt;
}

}  // namespace

std::optional<nlohmann::json> link_card(http::Client& http, const std::string& url,
                                        std::chrono::milliseconds timeout,
                                        const TargetCheck& check) {
    const auto page = fetch_page(http, url, Clock::now() + timeout, check);
    if (!page) return std::nullopt;
    const auto meta = read_page_meta(*page);
    if (meta.title.empty()) return std::nullopt;
    return nlohmann::json{
        {"$type", "app.bsky.embed.external"},
        {"external", {{"uri", url}, {"title", meta.title}, {"description", meta.description}}}};
}

}  // namespace squawk::social::bluesky
