// Bluesky as data for the platform registry: its connect fields, limits and PDS address, and the
// connector it builds.
#pragma once

#include "common/extensions/platforms/bluesky/connector.hpp"
#include "common/extensions/platforms/bluesky/options.hpp"

namespace squawk::social::bluesky {

inline constexpr CredentialField kCredentialFields[] = {
    {"identifier", "The account's handle (name.bsky.social), DID or e-mail address.", true},
    {"app_password", "An app password (Settings > Privacy and security > App passwords).", true},
    {"service", "The account's PDS (https://...) when it is not the configured one (bsky.social).",
     false},
};

inline constexpr std::string_view kPhotoTypes[] = {"image/jpeg", "image/png", "image/webp",
                                                   "image/gif"};
inline constexpr std::string_view kVideoTypes[] = {"video/mp4"};

// app.bsky.feed.post: text up to 300 graphemes, held here to 300 characters (code points, as the
// posts validator counts; a grapheme is one or more of them, so this never lets too much
// through, though it refuses some text of combined characters Bluesky would take); at most 4
// images (app.bsky.embed.images), each an uploaded blob of at most 1,000,000 bytes: Bluesky
// takes no image by URL; or one MP4 video (app.bsky.embed.video) of at most 100 MB and three
// minutes, through the video service (video_service.hpp). Posts cannot be edited.
inline constexpr PlatformFactory kFactory{
    .id = "bluesky",
    .aliases = {},
    .display_name = "Bluesky",
    .credential_fields = kCredentialFields,
    .connect_description =
        "A handle (or DID or e-mail) and an app password of the account, never its main "
        "password; service names a PDS other than the configured one.",
    .connect_style = ConnectStyle::app_password,
    .limits =
        {
            .max_text_chars = 300,
            .max_caption_chars = 300,
            .max_images = 4,
            .can_edit = false,
            .can_remove = true,
            .media = {.photo_types = kPhotoTypes,
                      .photos_by_url = false,
                      .document_types = {},
                      .max_photo_upload_bytes = 1'000'000,
                      .video_types = kVideoTypes,
                      .max_video_bytes = 100'000'000,
                      .max_video_seconds = 3 * 60},
        },
    .default_base_url = "https://bsky.social",
    .default_authorize_url = {},
    .oauth_scopes = {},
    .default_upload_url = "https://video.bsky.app",
    .check_options = &check_options,
    .settings_section = "bluesky",
    .make = &make,
};

}  // namespace squawk::social::bluesky
