#include "tests/support/connector_fixture.hpp"

namespace squawk::testing {

social::Message message(std::string text, std::vector<std::string> images) {
    social::Message m;
    m.text = std::move(text);
    m.image_urls = std::move(images);
    return m;
}

ConnectorFixture::ConnectorFixture() {
    for (const auto& platform : social::registered_platforms()) {
        auto& configured = settings.platforms[std::string(platform.settings_section)];
        configured.api_base_url = fake.base_url(std::string(platform.id));
        configured.timeout_ms = 800;
    }
}

std::unique_ptr<social::Connector> ConnectorFixture::connector(const std::string& platform) {
    return social::make_connector(platform, settings, http);
}

}  // namespace squawk::testing
