// TikTok as data for the platform registry: how it connects (Login Kit OAuth 2.0), its limits,
// post types and options, API address, consent page and scopes, and the connector it builds.
#pragma once

#include "common/extensions/platforms/tiktok/connector.hpp"
#include "common/extensions/platforms/tiktok/options.hpp"

namespace squawk::social::tiktok {

// Photo posts take JPEG and WebP only (developers.tiktok.com, Content Posting API media rules).
inline constexpr std::string_view kPhotoTypes[] = {"image/jpeg", "image/webp"};
inline constexpr std::string_view kVideoTypes[] = {"video/mp4", "video/quicktime", "video/webm"};

// Direct Post publishes with video.publish alone (video.upload is for drafts sent to the inbox,
// which Squawk does not make); the others read the account: its open_id and name
// (user.info.basic), its username for links (user.info.profile), its counts (user.info.stats)
// and its videos for listing and metrics (video.list).
inline constexpr std::string_view kScopes[] = {"user.info.basic", "user.info.profile",
                                               "user.info.stats", "video.list", "video.publish"};

// A video post by default; "photo" for 1 to 35 images sent by URL. A post whose media are images
// goes as photos without naming the type: its media say what it is.
inline constexpr std::string_view kPostTypes[] = {"video", "photo"};

// A video's title (its caption) is 2,200 characters; a photo post's text goes as its description
// (4,000), so 2,200 bounds both. Videos up to 4 GB and 10 minutes; photos by URL of at most
// 20 MB, from a domain verified for the application (PULL_FROM_URL). TikTok gives no way to edit
// or delete a post through its API.
inline constexpr PlatformFactory kFactory{
    .id = "tiktok",
    .aliases = {},
    .display_name = "TikTok",
    .credential_fields = {},
    .connect_description =
        "TikTok accounts connect through OAuth: GET /v1/social/connect/tiktok/authorize sends the "
        "user to TikTok's consent page and TikTok sends them back with the grant; no fields are "
        "sent here.",
    .connect_style = ConnectStyle::oauth,
    .limits =
        {
            .max_text_chars = 2200,
            .max_images = 35,
            .can_edit = false,
            .can_remove = false,
            .requires_media = true,
            .media = {.photo_types = kPhotoTypes,
                      .max_photo_bytes = 20 * 1024 * 1024,
                      .photos_by_url = true,
                      .document_types = {},
                      .video_types = kVideoTypes,
                      .max_video_bytes = 4LL * 1024 * 1024 * 1024,
                      .max_video_seconds = 600},
        },
    .default_base_url = "https://open.tiktokapis.com",
    .default_authorize_url = "https://www.tiktok.com/v2/auth/authorize/",
    .oauth_scopes = kScopes,
    .post_types = kPostTypes,
    .check_options = &check_options,
    .settings_section = "tiktok",
    .make = &make,
};

}  // namespace squawk::social::tiktok
