// Facebook Pages as data for the platform registry: how a Page connects (Facebook Login), its
// limits, post types, API address, consent page and permissions, and the connector it builds.
#pragma once

#include "common/extensions/platforms/facebook/connector.hpp"
#include "common/extensions/platforms/facebook/post_rules.hpp"
#include "common/extensions/platforms/facebook/reel_limit.hpp"

namespace squawk::social::facebook {

// developers.facebook.com/docs/graph-api/reference/page/photos: JPEG, PNG, GIF, BMP or TIFF.
inline constexpr std::string_view kPhotoTypes[] = {"image/jpeg", "image/png", "image/gif",
                                                   "image/bmp", "image/tiff"};
inline constexpr std::string_view kVideoTypes[] = {"video/mp4", "video/quicktime"};

inline constexpr std::string_view kPostTypes[] = {"post", "reel", "story"};
inline constexpr PostTypeMedia kPostTypeMedia[] = {{"reel", 1, 1, "one video"},
                                                   {"story", 1, 1, "one photo or one video"}};

// Listing the Pages (pages_show_list), publishing, editing and deleting (pages_manage_posts),
// reading posts and counts (pages_read_engagement, read_insights), the Page's settings, picture
// and cover (pages_manage_metadata), and the inbox: reading the comments people write
// (pages_read_user_content), answering and moderating them (pages_manage_engagement) and
// Messenger conversations (pages_messaging).
inline constexpr std::string_view kScopes[] = {"pages_show_list",         "pages_manage_posts",
                                               "pages_read_engagement",   "pages_manage_metadata",
                                               "read_insights",           "pages_read_user_content",
                                               "pages_manage_engagement", "pages_messaging"};

// A Page post has up to 63,206 characters, up to 10 photos by public URL (at most 10 MB each) or
// one video (MP4 or MOV, resumable upload up to 10 GB and 4 hours; reels 3 to 90 seconds). Page
// posts can be edited and deleted.
inline constexpr PlatformFactory kFactory{
    .id = "facebook",
    .aliases = {},
    .display_name = "Facebook",
    .credential_fields = {},
    .connect_description =
        "Facebook Pages connect through Facebook Login: GET /v1/social/connect/facebook/authorize "
        "sends the user to Facebook's consent page, where they choose the Page to connect (the "
        "first Page granted is connected); no fields are sent here.",
    .connect_style = ConnectStyle::oauth,
    .limits =
        {
            .max_text_chars = kMaxTextChars,
            .max_caption_chars = kMaxTextChars,
            .min_album_items = 2,
            .max_album_items = kMaxPhotos,
            .max_images = kMaxPhotos,
            .can_edit = true,
            .can_remove = true,
            .media = {.photo_types = kPhotoTypes,
                      .max_photo_bytes = 10 * 1024 * 1024,
                      .photos_by_url = true,
                      .document_types = {},
                      .video_types = kVideoTypes,
                      .max_video_bytes = 10LL * 1024 * 1024 * 1024,
                      .max_video_seconds = 4 * 60 * 60},
        },
    .default_base_url = "https://graph.facebook.com",
    .default_authorize_url = "https://www.facebook.com/v19.0/dialog/oauth",
    .oauth_scopes = kScopes,
    .post_types = kPostTypes,
    .post_type_media = kPostTypeMedia,
    .admit_post = &admit_post,
    .settings_section = "facebook",
    .make = &make,
};

}  // namespace squawk::social::facebook
