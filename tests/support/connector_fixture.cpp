#include "tests/support/connector_fixture.hpp"

#include "common/core/http/form_encoding.hpp"

namespace squawk::testing {

social::Message message(std::string text, std::vector<std::string> images) {
    social::Message m;
    m.text = std::move(text);
    m.image_urls = std::move(images);
    // Fakes and linked pages live on loopback.
    m.check_url = [](const std::string& url) { return net::check_target(url, true); };
    return m;
}

ConnectorFixture::ConnectorFixture() {
    for (const auto& platform : social::registered_platforms()) {
        auto& configured = settings.platforms[std::string(platform.settings_section)];
        configured.api_base_url = fake.base_url(std::string(platform.id));
        configured.timeout_ms = 800;
    }
}

social::OAuthClient ConnectorFixture::oauth_client(const std::string& platform) const {
    return {fake.oauth_client_id(), fake.oauth_client_secret(), fake.authorize_url(platform),
            "https://squawk.example/v1/social/connect/" + platform + "/callback"};
}

std::map<std::string, std::string> ConnectorFixture::consent(const std::string& consent_url) {
    http::Request r;
    r.url = consent_url;
    const auto answer = http.send(std::move(r));
    std::map<std::string, std::string> query;
    const auto location = answer.header("location");
    if (answer.status / 100 != 3 || !location) return query;
    const size_t start = location->find('?');
    if (start == std::string::npos) return query;
    std::string_view rest = std::string_view(*location).substr(start + 1);
    while (!rest.empty()) {
        const size_t amp = rest.find('&');
        const auto pair = rest.substr(0, amp);
        const size_t eq = pair.find('=');
        query[http::percent_decode(pair.substr(0, eq), true).value_or("")] =
            eq == std::string_view::npos
                ? ""
                : http::percent_decode(pair.substr(eq + 1), true).value_or("");
        rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    }
    return query;
}

std::unique_ptr<social::Connector> ConnectorFixture::connector(const std::string& platform) {
    return social::make_connector(platform, settings, http);
}

}  // namespace squawk::testing
