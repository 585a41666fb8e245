// Receives one upload's body for the front: reserves its buffer from the process's upload budget,
// writes the file (the whole body, or a form's `file` part) to the incoming folder through one
// bounded buffer, and refuses as early as it can tell: too large from the declared length, no
// room in the budget, not a form.
#pragma once

#include "api/server/multipart_form.hpp"
#include "api/server/received_upload.hpp"
#include "api/server/request_stream.hpp"
#include "api/server/route.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/domain/media/upload_budget.hpp"

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <optional>

namespace squawk::api {

// What the front knows about every upload.
struct UploadLimits {
    long long max_upload_bytes = 0;
    long long budget_bytes = 0;
    std::filesystem::path incoming_dir;  // on the media directory's filesystem
};

// What a form may carry beside its file (boundaries, part headers, small fields).
inline constexpr long long kFormFramingBytes = 1024 * 1024;

class UploadReceiver : public BodyReceiver, private FormSink {
  public:
    // `caller_known`: whether the head's key is one the API knows; a stranger's upload is
    // refused before any of it is written.
    UploadReceiver(const RequestHead& head, Route::Upload how, bool caller_known,
                   const UploadLimits& limits, UploadRegistry& registry);
    ~UploadReceiver() override;

    bool refused_at_head() const override { return refused_; }
    bool take(std::string_view payload) override;
    std::vector<std::pair<std::string, std::string>> settle(bool body_complete) override;

  private:
    void part_begins(const FormPartHead& head) override;
    void part_data(std::string_view bytes) override;
    void part_ends() override;

    void refuse(ReceivedUpload::Outcome outcome, std::string problem = {});
    void write(std::string_view bytes);
    void flush();

    const UploadLimits& limits_;
    UploadRegistry& registry_;
    ReceivedUpload upload_;
    std::optional<media::UploadBudget::Reservation> reservation_;
    std::optional<FormReader> form_;
    std::optional<crypto::Sha256Stream> digest_;
    bool refused_ = false;
    bool in_file_part_ = false;
    bool file_part_seen_ = false;
    long long body_bytes_ = 0;
    int fd_ = -1;
    off_t written_ = 0;  // bytes of the file written so far
    std::string buffer_;
    std::string ticket_;
};

}  // namespace squawk::api
