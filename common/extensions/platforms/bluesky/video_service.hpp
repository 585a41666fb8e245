// A post's video through Bluesky's video service (app.bsky.video, the [social.bluesky]
// upload_url): it checks and encodes the file, then stores the result on the account's PDS as a
// blob for the post's app.bsky.embed.video to name. Uploading there rather than to the PDS itself
// means the post never shows a video still processing, and a video the service refuses fails the
// publish before anything is posted.
#pragma once

#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/bluesky/session.hpp"

#include <chrono>
#include <string>

namespace squawk::social::bluesky {

class VideoService {
  public:
    VideoService(const config::PlatformSettings& settings, http::Client& http);

    // The blob of `video` once processed for the account of `session`, whose PDS is at
    // `pds_url`: Answer::body is the blob object. The file streams from disk, blocking the
    // worker's thread as the media stage's downloads do, for as long as bytes keep moving.
    Answer upload(PdsSession& session, const std::string& pds_url, const Video& video);

  private:
    // A service token of the account (com.atproto.server.getServiceAuth) that lets the video
    // service store the blob on its PDS.
    Answer service_token(PdsSession& session, const std::string& pds_url);
    Answer send_file(const std::string& token, const std::string& did, const Video& video);
    // Polls app.bsky.video.getJobStatus until the job has its blob or has failed.
    Answer wait_for_blob(const nlohmann::json& job_status);

    std::string base_url_;
    std::chrono::milliseconds stall_timeout_;
    PlatformApi api_;
};

}  // namespace squawk::social::bluesky
