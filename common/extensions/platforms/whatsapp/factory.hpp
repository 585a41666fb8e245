// WhatsApp (Cloud API) as data for the platform registry: its connect fields, limits and API
// address, and the connector it builds.
#pragma once

#include "common/extensions/platforms/whatsapp/connector.hpp"

namespace squawk::social::whatsapp {

inline constexpr CredentialField kCredentialFields[] = {
    {"waba_id", "The WhatsApp Business Account id.", true},
    {"phone_number_id", "The id of a phone number of that account.", true},
    {"access_token", "A Graph API access token that may read the phone number.", true},
};

// Verify-only: a text message body is 4096 characters, but accounts publish no posts.
inline constexpr PlatformFactory kFactory{
    .id = "whatsapp",
    .aliases = {},
    .display_name = "WhatsApp",
    .credential_fields = kCredentialFields,
    .connect_description =
        "A business phone number and a token that may read it. WhatsApp "
        "accounts are verify-only: they do not publish posts.",
    .connect_style = ConnectStyle::token,
    .limits = {.max_text_chars = 4096, .can_publish = false, .media = {}},
    .default_base_url = "https://graph.facebook.com/v19.0",
    .default_authorize_url = {},
    .oauth_scopes = {},
    .settings_section = "whatsapp",
    .make = &make,
};

}  // namespace squawk::social::whatsapp
