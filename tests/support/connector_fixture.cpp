#include "tests/support/connector_fixture.hpp"

namespace squawk::testing {

social::Message message(std::string text, std::vector<std::string> images) {
    social::Message m;
    m.text = std::move(text);
    m.image_urls = std::move(images);
    return m;
}

ConnectorFixture::ConnectorFixture() {
    for (const char* p : {"telegram", "discord", "whatsapp"}) {
        settings.platforms[p].api_base_url = fake.base_url(p);
        settings.platforms[p].timeout_ms = 800;
    }
}

std::unique_ptr<social::Connector> ConnectorFixture::connector(const std::string& platform) {
    return social::make_connector(platform, settings, http);
}

}  // namespace squawk::testing
