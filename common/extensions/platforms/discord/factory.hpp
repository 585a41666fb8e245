// Discord as data for the platform registry: its connect fields, limits and API address, and the
// connector it builds.
#pragma once

#include "common/extensions/platforms/discord/connector.hpp"

namespace squawk::social::discord {

inline constexpr CredentialField kCredentialFields[] = {
    {"webhook_url", "https://discord.com/api/webhooks/<id>/<token>", false},
    {"bot_token", "A bot token, with channel_id.", false},
    {"channel_id", "A Discord channel id (17 to 20 digits).", false},
};

inline constexpr std::string_view kPhotoTypes[] = {"image/png", "image/jpeg", "image/gif",
                                                   "image/webp"};

// Discord message limits: content 2000 characters, at most 10 embeds (one image each). Embed
// images are png, jpeg, gif or webp; Discord documents no size for them, so they are held to its
// 10 MB upload limit, past which previews are not shown.
inline constexpr PlatformFactory kFactory{
    .id = "discord",
    .aliases = {},
    .display_name = "Discord",
    .credential_fields = kCredentialFields,
    .connect_description = "webhook_url, or bot_token with channel_id.",
    .connect_style = ConnectStyle::token,
    .limits =
        {
            .max_text_chars = 2000,
            .max_caption_chars = 2000,
            .max_images = 10,
            .can_edit = true,
            .can_remove = true,
            .media = {.photo_types = kPhotoTypes,
                      .max_photo_bytes = 10'000'000,
                      .document_types = {}},
        },
    .default_base_url = "https://discord.com/api/v10",
    .default_authorize_url = {},
    .oauth_scopes = {},
    .settings_section = "discord",
    .make = &make,
};

}  // namespace squawk::social::discord
