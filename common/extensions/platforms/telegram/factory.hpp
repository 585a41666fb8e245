// Telegram as data for the platform registry: its connect fields, limits and API address, and the
// connector it builds.
#pragma once

#include "common/extensions/platforms/telegram/connector.hpp"

namespace squawk::social::telegram {

inline constexpr std::string_view kAliases[] = {"tg"};

inline constexpr CredentialField kCredentialFields[] = {
    {"bot_token", "The bot token from BotFather (<bot id>:<secret>).", true},
    {"chat", "@channelusername, a t.me link, or a numeric chat id.", true},
};

inline constexpr std::string_view kPhotoTypes[] = {"image/jpeg", "image/png", "image/webp"};
// GIFs go as documents (Telegram shows them as animations) rather than through sendAnimation, so
// an album of them stays one album of documents.
inline constexpr std::string_view kDocumentTypes[] = {"image/gif"};

// Bot API limits (core.telegram.org/bots/api): message text 4096, captions 1024, albums 2..10;
// files by URL: photos up to 5 MB, other content up to 20 MB and as a document only GIF, PDF and
// ZIP; uploads (multipart/form-data): photos up to 10 MB, documents up to 50 MB.
inline constexpr PlatformFactory kFactory{
    .id = "telegram",
    .aliases = kAliases,
    .display_name = "Telegram",
    .credential_fields = kCredentialFields,
    .connect_description =
        "A bot token and the chat it posts to. The bot must be able to post "
        "there (an administrator of a channel).",
    .connect_style = ConnectStyle::token,
    .limits =
        {
            .max_text_chars = 4096,
            .max_caption_chars = 1024,
            .min_album_items = 2,
            .max_album_items = 10,
            .max_images = 10,
            .can_edit = true,
            .can_remove = true,
            .media =
                {
                    .photo_types = kPhotoTypes,
                    .max_photo_bytes = 5'000'000,
                    .document_types = kDocumentTypes,
                    .max_document_bytes = 20'000'000,
                    .max_photo_upload_bytes = 10'000'000,
                    .max_document_upload_bytes = 50'000'000,
                },
        },
    .default_base_url = "https://api.telegram.org",
    .default_authorize_url = {},
    .oauth_scopes = {},
    .settings_section = "telegram",
    .make = &make,
};

}  // namespace squawk::social::telegram
