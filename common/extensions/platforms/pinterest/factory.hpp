// Pinterest as data for the platform registry: how it connects (OAuth 2.0), its limits, API
// address, consent page and scopes, its one post type and options, and the connector it builds.
#pragma once

#include "common/extensions/platforms/pinterest/connector.hpp"
#include "common/extensions/platforms/pinterest/options.hpp"
#include "common/extensions/platforms/pinterest/video_upload.hpp"

namespace squawk::social::pinterest {

inline constexpr std::string_view kPhotoTypes[] = {"image/jpeg", "image/png", "image/webp"};
inline constexpr std::string_view kVideoTypes[] = {"video/mp4", "video/quicktime"};

// Reading boards (a pin's board is checked first) and pins, writing pins, and the account.
inline constexpr std::string_view kScopes[] = {"boards:read", "pins:read", "pins:write",
                                               "user_accounts:read"};

inline constexpr std::string_view kPostTypes[] = {"pin"};

// A pin needs an image or a video. Its description holds 500 characters; images go by public
// URL (at most 20 MB), one or a carousel of 2 to 5; a video (MP4 or MOV, at most 15 minutes) is
// uploaded, streamed from its file, up to Pinterest's 2 GB. Pins can be edited and deleted.
inline constexpr PlatformFactory kFactory{
    .id = "pinterest",
    .aliases = {},
    .display_name = "Pinterest",
    .credential_fields = {},
    .connect_description =
        "Pinterest accounts connect through OAuth: GET /v1/social/connect/pinterest/authorize "
        "sends the user to Pinterest's consent page and Pinterest sends them back with the "
        "grant; no fields are sent here.",
    .connect_style = ConnectStyle::oauth,
    .limits =
        {
            .max_text_chars = 500,
            .min_album_items = 2,
            .max_album_items = 5,
            .max_images = 5,
            .can_edit = true,
            .can_remove = true,
            .requires_media = true,
            .media = {.photo_types = kPhotoTypes,
                      .max_photo_bytes = 20 * 1024 * 1024,
                      .photos_by_url = true,
                      .document_types = {},
                      .video_types = kVideoTypes,
                      .max_video_bytes = kMaxVideoUploadBytes,
                      .max_video_seconds = 15 * 60},
        },
    .default_base_url = "https://api.pinterest.com",
    .default_authorize_url = "https://www.pinterest.com/oauth/",
    .oauth_scopes = kScopes,
    .post_types = kPostTypes,
    .check_options = &check_options,
    .settings_section = "pinterest",
    .make = &make,
};

}  // namespace squawk::social::pinterest
