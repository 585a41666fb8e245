#include "common/domain/social/connector.hpp"

#include "common/core/fs/work_files.hpp"
#include "common/domain/social/platform_sections.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace squawk::social {

const PlatformFactory* find_platform(std::string_view id_or_alias) {
    const auto platforms = registered_platforms();
    const auto found = std::find_if(platforms.begin(), platforms.end(), [&](const auto& p) {
        return p.id == id_or_alias ||
               std::find(p.aliases.begin(), p.aliases.end(), id_or_alias) != p.aliases.end();
    });
    return found == platforms.end() ? nullptr : &*found;
}

std::string_view default_post_type(const PlatformFactory& platform) {
    return platform.post_types.empty() ? "post" : platform.post_types.front();
}

bool takes_post_type(const PlatformFactory& platform, std::string_view post_type) {
    if (platform.post_types.empty()) return post_type == "post";
    return std::find(platform.post_types.begin(), platform.post_types.end(), post_type) !=
           platform.post_types.end();
}

std::string accepted_post_types(const PlatformFactory& platform) {
    if (platform.post_types.empty()) return "post";
    std::string out;
    for (const auto type : platform.post_types) {
        if (!out.empty()) out += ", ";
        out += type;
    }
    return out;
}

std::string Video::read_chunk(long long offset, size_t length) const {
    auto chunk = fs::read_file_range(path, offset, length);
    if (!chunk) throw std::runtime_error("cannot read the video file " + path);
    return std::move(*chunk);
}

std::unique_ptr<Connector> make_connector(std::string_view platform,
                                          const config::SocialSettings& settings,
                                          http::Client& http) {
    const auto* factory = find_platform(platform);
    if (!factory) return nullptr;
    const auto configured = settings.platforms.find(std::string(factory->settings_section));
    config::PlatformSettings fallback;
    fallback.api_base_url = std::string(factory->default_base_url);
    fallback.authorize_url = std::string(factory->default_authorize_url);
    fallback.token_url = std::string(factory->default_token_url);
    fallback.upload_url = std::string(factory->default_upload_url);
    return factory->make(configured == settings.platforms.end() ? fallback : configured->second,
                         http);
}

std::string_view Connector::platform() const {
    return factory_.id;
}

const PlatformLimits& Connector::limits() const {
    return factory_.limits;
}

MessageChange Connector::edit(const Target&, const std::string&, const Message&) {
    return {PlatformFailure{FailureKind::refused,
                            std::string(platform()) + " messages cannot be edited through its API",
                            std::nullopt, 0, ""}};
}

MessageChange Connector::remove(const Target&, const std::string&) {
    return {PlatformFailure{FailureKind::refused,
                            std::string(platform()) + " messages cannot be deleted through its API",
                            std::nullopt, 0, ""}};
}

std::string Connector::authorize_url(const OAuthClient&, const std::string&,
                                     const std::string&) const {
    throw std::logic_error(std::string(platform()) + " does not connect through OAuth");
}

TokenGrant Connector::exchange_code(const OAuthClient&, const std::string&, const std::string&) {
    throw std::logic_error(std::string(platform()) + " does not connect through OAuth");
}

TokenGrant Connector::refresh(const OAuthClient&, const Credentials&) {
    throw std::logic_error(std::string(platform()) + " does not connect through OAuth");
}

}  // namespace squawk::social

namespace squawk::config {

std::span<const PlatformSection> platform_sections() {
    static const std::vector<PlatformSection> sections = [] {
        std::vector<PlatformSection> out;
        for (const auto& p : social::registered_platforms())
            out.push_back({p.settings_section, p.default_base_url, p.default_authorize_url,
                           p.default_token_url, p.default_upload_url});
        return out;
    }();
    return sections;
}

}  // namespace squawk::config
