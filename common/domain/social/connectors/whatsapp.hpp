// WhatsApp Cloud API connector: verifies that a phone number id belongs to the business account
// and the access token may read it. Verify-only: the Cloud API messages contacts, it has no feed.
#pragma once

#include "common/domain/social/connector.hpp"

#include <string_view>

namespace squawk::social::whatsapp {

inline constexpr std::string_view kCredentialFields[] = {"waba_id", "phone_number_id",
                                                         "access_token"};

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http);

constexpr ConnectorFactory factory() {
    return ConnectorFactory{"whatsapp", kCredentialFields, &make};
}

}  // namespace squawk::social::whatsapp
