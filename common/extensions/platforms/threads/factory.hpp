// Threads (Meta) as data for the platform registry: how it connects (OAuth 2.0), its limits, API
// address, consent page and scopes, and the connector it builds.
#pragma once

#include "common/extensions/platforms/threads/connector.hpp"
#include "common/extensions/platforms/threads/options.hpp"

namespace squawk::social::threads {

inline constexpr std::string_view kPhotoTypes[] = {"image/jpeg", "image/png"};
inline constexpr std::string_view kVideoTypes[] = {"video/mp4", "video/quicktime"};

// threads_delete as well as publishing: Threads refuses DELETE /{media-id} without it, and
// Squawk deletes the posts it published. threads_manage_insights: the followers and post counts
// the sync pool reads come from the insights endpoints. threads_read_replies and
// threads_manage_replies: the inbox reads the replies under the account's posts and hides them.
inline constexpr std::string_view kScopes[] = {"threads_basic",        "threads_content_publish",
                                               "threads_delete",       "threads_manage_insights",
                                               "threads_read_replies", "threads_manage_replies"};

// developers.facebook.com/docs/threads/posts: text up to 500 characters (Threads counts an emoji
// as its UTF-8 bytes, so text rich in emoji may still be refused); images by public URL only,
// JPEG or PNG of at most 8 MB (held to 8,000,000 bytes); a carousel has 2 to 20 items; one video
// by public URL too, MP4 or MOV of at most 1 GB and 5 minutes, so never one Squawk had to
// transcode (the connector refuses it). Posts
// cannot be edited; they can be deleted (threads_delete). A post may answer another
// (platform_options.threads.reply_to: options.hpp).
inline constexpr PlatformFactory kFactory{
    .id = "threads",
    .aliases = {},
    .display_name = "Threads",
    .credential_fields = {},
    .connect_description =
        "Threads accounts connect through OAuth: GET /v1/social/connect/threads/authorize sends "
        "the user to Meta's consent page and Threads sends them back with the grant; no fields "
        "are sent here.",
    .connect_style = ConnectStyle::oauth,
    .limits =
        {
            .max_text_chars = 500,
            .max_caption_chars = 500,
            .min_album_items = 2,
            .max_album_items = 20,
            .max_images = 20,
            .can_edit = false,
            .can_remove = true,
            .media = {.photo_types = kPhotoTypes,
                      .max_photo_bytes = 8'000'000,
                      .photos_by_url = true,
                      .document_types = {},
                      .video_types = kVideoTypes,
                      .max_video_bytes = 1'000'000'000,
                      .max_video_seconds = 5 * 60},
        },
    .default_base_url = "https://graph.threads.net",
    .default_authorize_url = "https://threads.net/oauth/authorize",
    .oauth_scopes = kScopes,
    .check_options = &check_options,
    .settings_section = "threads",
    .make = &make,
};

}  // namespace squawk::social::threads
