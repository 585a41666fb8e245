// YouTube as data for the platform registry: how it connects (Google OAuth 2.0, the token
// endpoint on its own host), its limits and post types, API address and the connector it builds.
#pragma once

#include "common/extensions/platforms/youtube/connector.hpp"
#include "common/extensions/platforms/youtube/video_metadata.hpp"

namespace squawk::social::youtube {

// Uploading (videos.insert), reading the channel, its uploads and statistics, and editing and
// deleting videos (videos.update and videos.delete take none of the first two).
inline constexpr std::string_view kScopes[] = {"https://www.googleapis.com/auth/youtube.upload",
                                               "https://www.googleapis.com/auth/youtube.readonly",
                                               "https://www.googleapis.com/auth/youtube.force-ssl"};

// A Short is uploaded as any video; YouTube tells it by the file (square or vertical, at most
// three minutes).
inline constexpr std::string_view kPostTypes[] = {"video", "short"};

// The containers YouTube lists as supported upload formats.
inline constexpr std::string_view kVideoTypes[] = {
    "video/mp4",  "video/quicktime", "video/webm",     "video/x-msvideo",
    "video/mpeg", "video/3gpp",      "video/x-ms-wmv", "video/x-flv"};

// Every post is one video: the text is its description (5,000 bytes; the validator counts
// characters and publish() the bytes), the title an option or the text's first line. Files of up
// to 256 GB or 12 hours, whichever is less. Videos can be edited (title and description) and
// deleted.
inline constexpr PlatformFactory kFactory{
    .id = "youtube",
    .aliases = {},
    .display_name = "YouTube",
    .credential_fields = {},
    .connect_description =
        "YouTube channels connect through Google OAuth: GET /v1/social/connect/youtube/authorize "
        "sends the user to Google's consent page and Google sends them back with the grant; no "
        "fields are sent here.",
    .connect_style = ConnectStyle::oauth,
    .limits =
        {
            .max_text_chars = kMaxDescriptionBytes,
            .max_caption_chars = kMaxDescriptionBytes,
            .max_images = 0,
            .can_edit = true,
            .can_remove = true,
            .requires_media = true,
            .media = {.photo_types = {},
                      .photos_by_url = false,
                      .document_types = {},
                      .video_types = kVideoTypes,
                      .max_video_bytes = 256LL * 1024 * 1024 * 1024,
                      .max_video_seconds = 12 * 3600},
        },
    .default_base_url = "https://www.googleapis.com",
    .default_authorize_url = "https://accounts.google.com/o/oauth2/v2/auth",
    .oauth_scopes = kScopes,
    .default_token_url = "https://oauth2.googleapis.com/token",
    .post_types = kPostTypes,
    .check_options = &check_options,
    .settings_section = "youtube",
    .make = &make,
};

}  // namespace squawk::social::youtube
