#include "tests/support/connector_fixture.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/core/time/clock.hpp"

#include <fstream>

namespace squawk::testing {

social::Message message(std::string text, std::vector<std::string> images) {
    social::Message m;
    m.text = std::move(text);
    m.image_urls = std::move(images);
    // Fakes and linked pages live on loopback.
    m.check_url = [](const std::string& url) { return net::check_target(url, true); };
    return m;
}

Fields form_fields(std::string_view text) {
    Fields fields;
    while (!text.empty()) {
        const size_t amp = text.find('&');
        const auto pair = text.substr(0, amp);
        const size_t eq = pair.find('=');
        if (!pair.empty())
            fields[http::percent_decode(pair.substr(0, eq), true).value_or("")] =
                eq == std::string_view::npos
                    ? ""
                    : http::percent_decode(pair.substr(eq + 1), true).value_or("");
        text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
    }
    return fields;
}

Fields query_fields(const std::string& url) {
    const size_t question = url.find('?');
    return question == std::string::npos ? Fields() : form_fields(url.substr(question + 1));
}

ConnectorFixture::ConnectorFixture() {
    for (const auto& platform : social::registered_platforms()) {
        auto& configured = settings.platforms[std::string(platform.settings_section)];
        configured.api_base_url = fake.base_url(std::string(platform.id));
        configured.token_url = fake.token_url(std::string(platform.id));
        configured.upload_url = fake.upload_url(std::string(platform.id));
        configured.timeout_ms = 800;
    }
}

social::OAuthClient ConnectorFixture::oauth_client(const std::string& platform) const {
    return {fake.oauth_client_id(), fake.oauth_client_secret(), fake.authorize_url(platform),
            "https://squawk.example/v1/social/connect/" + platform + "/callback",
            fake.token_url(platform)};
}

Fields ConnectorFixture::consent(const std::string& consent_url) {
    http::Request r;
    r.url = consent_url;
    const auto answer = http.send(std::move(r));
    const auto location = answer.header("location");
    if (answer.status / 100 != 3 || !location) return {};
    return query_fields(*location);
}

std::unique_ptr<social::Connector> ConnectorFixture::connector(const std::string& platform) {
    return social::make_connector(platform, settings, http);
}

Fields call_query(const nlohmann::json& call) {
    return query_fields(call["target"].get<std::string>());
}

Fields form_of(const nlohmann::json& call) {
    return form_fields(call["body"].get<std::string>());
}

long long unix_now() {
    return time::to_unix_ms(time::now()) / 1000;
}

social::Upload png(const std::string& name, size_t bytes) {
    return {name, "image/png", std::string(bytes, 'p')};
}

social::Video video_file(const fs::ScratchDirectory& folder, long long bytes, VideoShape shape) {
    social::Video video;
    video.url = "https://cdn.example/" + shape.name;
    video.path = (folder / shape.name).string();
    video.content_type = "video/mp4";
    video.bytes = bytes;
    video.duration_seconds = shape.seconds;
    video.width = shape.width;
    video.height = shape.height;
    std::ofstream(video.path, std::ios::binary) << std::string(static_cast<size_t>(bytes), 'v');
    return video;
}

}  // namespace squawk::testing
