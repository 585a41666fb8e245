// Instagram (professional accounts, through the Instagram Graph API and Facebook Login) as data
// for the platform registry: how it connects, its limits, post types and options, API address,
// consent page and permissions, and the connector it builds.
#pragma once

#include "common/extensions/platforms/instagram/connector.hpp"
#include "common/extensions/platforms/instagram/post_rules.hpp"

namespace squawk::social::instagram {

// Instagram fetches images itself and takes JPEG only.
inline constexpr std::string_view kPhotoTypes[] = {"image/jpeg"};
inline constexpr std::string_view kVideoTypes[] = {"video/mp4", "video/quicktime"};

inline constexpr std::string_view kPostTypes[] = {"post", "reel", "story"};
inline constexpr PostTypeMedia kPostTypeMedia[] = {{"reel", 1, 1, "one video"},
                                                   {"story", 1, 1, "one image or one video"}};

// Reading the account and its Page (instagram_basic, pages_show_list, pages_read_engagement),
// publishing (instagram_content_publish), the first comment (instagram_manage_comments) and the
// metrics the sync pool reads (instagram_manage_insights).
inline constexpr std::string_view kScopes[] = {
    "instagram_basic", "instagram_content_publish", "instagram_manage_comments",
    "pages_show_list", "pages_read_engagement",     "instagram_manage_insights"};

// developers.facebook.com/docs/instagram-platform/content-publishing: every post has media (one
// JPEG image of at most 8 MB by public URL, a carousel of 2 to 10, or a video: reels of MP4 or MOV
// up to 300 MB and 15 minutes); captions have at most 2,200 characters and 30 hashtags. Published
// media cannot be edited or deleted through the API. Posts go out as "post" (an image, a carousel
// or a video shown as a reel in the feed), "reel" or "story" (one image or video, no caption).
inline constexpr PlatformFactory kFactory{
    .id = "instagram",
    .aliases = {},
    .display_name = "Instagram",
    .credential_fields = {},
    .connect_description =
        "Instagram professional accounts connect through Facebook Login: GET "
        "/v1/social/connect/instagram/authorize sends the user to Facebook's consent page, where "
        "they choose the Page their Instagram account is linked to; no fields are sent here.",
    .connect_style = ConnectStyle::oauth,
    .limits =
        {
            .max_text_chars = kMaxCaptionChars,
            .text_problem = &hashtag_problem,
            .max_caption_chars = kMaxCaptionChars,
            .min_album_items = kMinCarouselItems,
            .max_album_items = kMaxCarouselItems,
            .max_images = kMaxCarouselItems,
            .can_edit = false,
            .can_remove = false,
            .posts_first_comments = true,
            .requires_media = true,
            .media = {.photo_types = kPhotoTypes,
                      .max_photo_bytes = 8 * 1024 * 1024,
                      .photos_by_url = true,
                      .document_types = {},
                      .video_types = kVideoTypes,
                      .max_video_bytes = 300LL * 1024 * 1024,
                      .max_video_seconds = 15 * 60},
        },
    .default_base_url = "https://graph.facebook.com",
    .default_authorize_url = "https://www.facebook.com/v19.0/dialog/oauth",
    .oauth_scopes = kScopes,
    .post_types = kPostTypes,
    .post_type_media = kPostTypeMedia,
    .check_options = &check_options,
    .settings_section = "instagram",
    .make = &make,
};

}  // namespace squawk::social::instagram
