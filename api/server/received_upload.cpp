#include "api/server/received_upload.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/error/api_error.hpp"

#include <stdexcept>

namespace squawk::api {

std::string UploadRegistry::put(ReceivedUpload upload) {
    std::string ticket = crypto::hex(crypto::random_bytes(16));
    auto shared = std::make_shared<ReceivedUpload>(std::move(upload));
    std::lock_guard lock(mutex_);
    uploads_.emplace(ticket, std::move(shared));
    return ticket;
}

std::shared_ptr<ReceivedUpload> UploadRegistry::claim(std::string_view ticket) {
    std::lock_guard lock(mutex_);
    const auto found = uploads_.find(std::string(ticket));
    if (found == uploads_.end()) return nullptr;
    auto upload = std::move(found->second);
    uploads_.erase(found);
    return upload;
}

void require_received(const ReceivedUpload& upload, long long max_upload_bytes) {
    using Outcome = ReceivedUpload::Outcome;
    switch (upload.outcome) {
        case Outcome::received:
            return;
        case Outcome::too_large:
            throw ApiError(ErrorCode::PayloadTooLarge, {}, {{"max_body_bytes", max_upload_bytes}});
        case Outcome::busy:
            throw ApiError(ErrorCode::ServiceUnavailable,
                           "Too many uploads are in progress; retry shortly.",
                           {{"retry_after_seconds", 1}});
        case Outcome::unauthenticated:
            throw ApiError(ErrorCode::InvalidApiKey);
        case Outcome::not_a_form:
            throw ApiError(ErrorCode::UnsupportedMediaType,
                           "The body must be multipart/form-data with a boundary.");
        case Outcome::malformed_form:
            throw ApiError(ErrorCode::InvalidRequest, "The multipart/form-data body is malformed.",
                           {{"reason", upload.problem}});
        case Outcome::no_file:
            throw validation_error({{"file", "is required: send the file in a part named file"}});
        case Outcome::incomplete:
            throw ApiError(ErrorCode::InvalidRequest, "The upload's body ended before its end.",
                           {{"reason", "malformed chunked transfer coding"}});
        case Outcome::write_failed:
            throw std::runtime_error("an upload could not be written: " + upload.problem);
    }
}

}  // namespace squawk::api
