// WhatsApp Cloud API connector: verifies that a phone number id belongs to the business account
// and the access token may read it. Verify-only: the Cloud API messages contacts, it has no feed.
#pragma once

#include "common/domain/social/connector.hpp"

#include <memory>

namespace squawk::social::whatsapp {

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http);

}  // namespace squawk::social::whatsapp
