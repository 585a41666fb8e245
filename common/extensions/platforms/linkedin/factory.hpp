// LinkedIn as data for the platform registry: how it connects (OAuth 2.0, the token endpoint on
// www.linkedin.com rather than the API's host), its limits, post types, API address and the
// connector it builds.
#pragma once

#include "common/extensions/platforms/linkedin/connector.hpp"
#include "common/extensions/platforms/linkedin/post_options.hpp"

namespace squawk::social::linkedin {

inline constexpr std::string_view kPhotoTypes[] = {"image/jpeg", "image/png", "image/gif"};
inline constexpr std::string_view kDocumentTypes[] = {
    "application/pdf",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.ms-powerpoint",
    "application/msword",
};
inline constexpr std::string_view kVideoTypes[] = {"video/mp4"};

// Signing in with OpenID Connect (openid, profile: the member's id and name) and posting as the
// member (w_member_social, which covers the Images, Videos and Documents APIs too).
inline constexpr std::string_view kScopes[] = {"openid", "profile", "w_member_social"};
// The consent of a deployment whose application has the Community Management API
// ([social.linkedin] organization_pages): posting as, and reading, the pages the member
// administers too, with their posts' statistics. Not required of the grant: a member who declines
// still posts as themself.
inline constexpr std::string_view kOrganizationScopes[] = {"openid",
                                                           "profile",
                                                           "w_member_social",
                                                           "w_organization_social",
                                                           "r_organization_social",
                                                           "rw_organization_admin"};

// "document": the post's media is one PDF, PowerPoint or Word file, shown as a document.
inline constexpr std::string_view kPostTypes[] = {"post", "document"};
inline constexpr PostTypeMedia kPostTypeMedia[] = {{"document", 1, 1, "one document"}};

// learn.microsoft.com/linkedin (Posts, Images, Videos and Documents APIs): commentary up to 3,000
// characters; one image or 2 to 20 (multiImage), JPEG, PNG or GIF, always uploaded (LinkedIn
// bounds images by pixels, Squawk holds them to 10 MB); one MP4 video of at most 500 MB and 30
// minutes, an aspect of 1:2.4 to 2.4:1 and at most 4096 pixels on the longer side; one document of
// at most 100 MB. Posts can be edited (their commentary) and deleted.
inline constexpr PlatformFactory kFactory{
    .id = "linkedin",
    .aliases = {},
    .display_name = "LinkedIn",
    .credential_fields = {},
    .connect_description =
        "LinkedIn members connect through OAuth: GET /v1/social/connect/linkedin/authorize sends "
        "the user to LinkedIn's consent page and LinkedIn sends them back with the grant; no "
        "fields are sent here.",
    .connect_style = ConnectStyle::oauth,
    .limits =
        {
            .max_text_chars = 3000,
            .min_album_items = 2,
            .max_album_items = 20,
            .max_images = 20,
            .can_edit = true,
            .can_remove = true,
            .media = {.photo_types = kPhotoTypes,
                      .photos_by_url = false,
                      .document_types = kDocumentTypes,
                      .max_document_bytes = 0,
                      .max_photo_upload_bytes = 10 * 1000 * 1000,
                      .max_document_upload_bytes = 100 * 1000 * 1000,
                      .video_types = kVideoTypes,
                      .max_video_bytes = 500LL * 1000 * 1000,
                      .max_video_seconds = 30 * 60,
                      .min_video_aspect = 1 / 2.4,
                      .max_video_aspect = 2.4,
                      .max_video_long_side = 4096},
        },
    .default_base_url = "https://api.linkedin.com",
    .default_authorize_url = "https://www.linkedin.com/oauth/v2/authorization",
    .oauth_scopes = kScopes,
    .default_token_url = "https://www.linkedin.com/oauth/v2/accessToken",
    .post_types = kPostTypes,
    .post_type_media = kPostTypeMedia,
    .check_options = &check_options,
    .settings_section = "linkedin",
    .make = &make,
};

}  // namespace squawk::social::linkedin
