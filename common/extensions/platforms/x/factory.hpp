// X (formerly Twitter) as data for the platform registry: how it connects (OAuth 2.0), its
// limits, API address and consent page, and the connector it builds.
#pragma once

#include "common/extensions/platforms/x/connector.hpp"
#include "common/extensions/platforms/x/options.hpp"
#include "common/extensions/platforms/x/weighted_length.hpp"

namespace squawk::social::x {

inline constexpr std::string_view kAliases[] = {"twitter"};

inline constexpr std::string_view kPhotoTypes[] = {"image/jpeg", "image/png", "image/webp",
                                                   "image/gif"};
inline constexpr std::string_view kVideoTypes[] = {"video/mp4", "video/quicktime"};

// A thread is the post followed by its platform_options.x.thread parts, each replying to the one
// before (options.hpp).
inline constexpr std::string_view kPostTypes[] = {"post", "thread"};

// Reading the account and its posts, posting, refresh tokens (without offline.access X gives
// none and the account would need reconnecting every two hours), uploading images, and for the
// inbox hiding replies (tweet.moderate.write) and liking them (like.write).
inline constexpr std::string_view kScopes[] = {
    "tweet.read",  "tweet.write",          "users.read", "offline.access",
    "media.write", "tweet.moderate.write", "like.write"};

// A post is 280 characters as X weighs them (a link 23, CJK and emoji 2: weighted_length.hpp),
// checked when the post is created and again by publish(). Up to
// 4 images, each uploaded (X takes none by URL) and at most 5 MB, or one video (MP4 or MOV, at
// most 512 MB and 140 seconds, an aspect of 1:3 to 3:1 and at most 1920 pixels wide or 1900
// high: held to 1920 on the longer side) uploaded in segments. Posts cannot be edited through the
// API.
inline constexpr PlatformFactory kFactory{
    .id = "x",
    .aliases = kAliases,
    .display_name = "X",
    .credential_fields = {},
    .connect_description =
        "X accounts connect through OAuth: GET /v1/social/connect/x/authorize sends the user to "
        "X's consent page and X sends them back with the grant; no fields are sent here.",
    .connect_style = ConnectStyle::oauth,
    .limits =
        {
            .max_text_chars = kMaxWeightedLength,
            .text_length = &weighted_length,
            .max_images = 4,
            .can_edit = false,
            .can_remove = true,
            .media = {.photo_types = kPhotoTypes,
                      .photos_by_url = false,
                      .document_types = {},
                      .max_photo_upload_bytes = 5 * 1024 * 1024,
                      .video_types = kVideoTypes,
                      .max_video_bytes = 512LL * 1024 * 1024,
                      .max_video_seconds = 140,
                      .min_video_aspect = 1.0 / 3,
                      .max_video_aspect = 3,
                      .max_video_long_side = 1920},
        },
    .default_base_url = "https://api.x.com",
    .default_authorize_url = "https://x.com/i/oauth2/authorize",
    .oauth_scopes = kScopes,
    .post_types = kPostTypes,
    .check_options = &check_options,
    .settings_section = "x",
    .make = &make,
};

}  // namespace squawk::social::x
