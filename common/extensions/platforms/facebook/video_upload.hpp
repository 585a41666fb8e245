// A Page's videos go up from the local file in pieces of at most kVideoChunkBytes, by one of
// Facebook's two protocols: the resumable upload of /{page}/videos (start, transfer of the
// offsets Facebook asks for, finish, which publishes), and the hosted upload of reels and stories
// (start on /{page}/video_reels or video_stories, the file to the upload address it hands out,
// finish, which publishes).
#pragma once

#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/platform_api.hpp"

#include <string>

namespace squawk::social::facebook {

// Where a video goes and as what.
struct VideoPost {
    std::string page_id;
    std::string token;        // the Page access token
    std::string edge;         // "videos", "video_reels" or "video_stories"
    http::FormFields finish;  // what the finish phase publishes with (description, ...)
};

// The video published: body {video_id, post_id?}, or why not. Only a finish phase without an
// answer has an unknown outcome; every earlier failure published nothing.
Answer publish_video(PlatformApi& api, const VideoPost& post, const Video& video);

}  // namespace squawk::social::facebook
