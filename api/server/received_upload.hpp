// An upload as the front received it, and the registry through which the request's handler
// claims it: the front settles the body before Pistache parses the request that stands for it,
// and names it there by an unguessable ticket (kUploadTicketField).
#pragma once

#include "common/core/fs/work_files.hpp"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace squawk::api {

struct ReceivedUpload {
    enum class Outcome {
        received,
        too_large,        // past media.max_upload_bytes
        busy,             // the upload budget was full
        unauthenticated,  // the head carried no key the API knows: nothing was written
        not_a_form,       // a form upload without a multipart/form-data Content-Type
        malformed_form,   // `problem` says how
        no_file,          // a form without a part named `file`
        incomplete,       // the connection broke the body's framing
        write_failed,     // the disk refused it; `problem` says why
    };
    Outcome outcome = Outcome::received;
    std::string problem;
    fs::OwnedFile file;  // the bytes, when received
    long long size_bytes = 0;
    std::optional<std::string> filename;  // a form part's own name for the file
    // The digest of the bytes, taken when the request carried an idempotency key.
    std::optional<std::string> sha256;
};

class UploadRegistry {
  public:
    // The ticket that names it.
    std::string put(ReceivedUpload upload);
    // Taken out of the registry; null for a ticket it does not hold.
    std::shared_ptr<ReceivedUpload> claim(std::string_view ticket);
    // Drops an upload nobody claimed, with its file.
    void discard(const std::string& ticket) { claim(ticket); }

  private:
    std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<ReceivedUpload>> uploads_;
};

// Throws the ApiError a refused upload answers; does nothing for a received one.
void require_received(const ReceivedUpload& upload, long long max_upload_bytes);

}  // namespace squawk::api
