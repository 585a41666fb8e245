// A post's media uploaded to LinkedIn before the post names them by URN: images (Images API),
// documents (Documents API) and videos in the parts LinkedIn hands out (Videos API), each read
// back until LinkedIn has it ready where it processes it.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace squawk::social::linkedin {

// The URN of media LinkedIn took, or why it did not. No failure here published anything.
struct UploadedMedia {
    std::string urn;
    std::optional<PlatformFailure> failure;
};

class MediaUploads {
  public:
    // Media owned by `owner` (the post's author URN: a member or an organization), uploaded
    // with `credentials`.
    MediaUploads(PlatformApi& api, const Credentials& credentials, std::string owner);

    UploadedMedia image(const Upload& file);
    UploadedMedia document(const Upload& file);
    UploadedMedia video(const Video& video);

  private:
    // initializeUpload on `resource` (images, documents), then the bytes PUT to the upload URL.
    UploadedMedia single_upload(const std::string& resource, const char* urn_member,
                                const Upload& file);
    // Reads /rest/<resource>/<urn> until its status is AVAILABLE.
    std::optional<PlatformFailure> wait_until_available(const std::string& resource,
                                                        const std::string& urn);

    PlatformApi& api_;
    const Credentials& credentials_;
    std::string owner_;
    std::string_view permission_;  // the scope uploads for owner_ need, named in a 403
};

}  // namespace squawk::social::linkedin
