// Instagram's publishing steps for one account: a media container per post (an image, a carousel
// of image items, a reel or a story), a video sent to the container by resumable upload and read
// until FINISHED, then media_publish, an image's container read until FINISHED only when Instagram
// answers that it is not ready.
#pragma once

#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/platform_api.hpp"

#include <optional>
#include <string>

namespace squawk::social::instagram {

// A media container: its id, or why none was made ready.
struct Container {
    std::string id;
    std::string upload_uri;  // where a resumable container's video goes
    std::optional<PlatformFailure> failure;
};

class Containers {
  public:
    Containers(PlatformApi& api, std::string token, std::string user_id)
        : api_(api), token_(std::move(token)), user_(std::move(user_id)) {}

    // The container of `message` (which post_problem let through), its video uploaded and
    // transcoded. No failure here publishes anything.
    Container prepare(const Message& message);
    // media_publish of the container once Instagram has it FINISHED: the media's id and, when
    // the answer gives it, its permalink; or why there is none (an unknown outcome when the
    // request went out and no answer came).
    Publication publish(const std::string& container_id);

  private:
    Container create(http::FormFields fields);
    Container create_for_video(http::FormFields fields, const Video& video);
    std::optional<PlatformFailure> upload(const std::string& uri, const Video& video);
    std::optional<PlatformFailure> wait_until_finished(const std::string& id);
    Answer media_publish(const std::string& container_id);

    PlatformApi& api_;
    std::string token_;
    std::string user_;
};

}  // namespace squawk::social::instagram
