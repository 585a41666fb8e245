#include "common/domain/social/platform_failure_error.hpp"

#include "common/core/error/api_error.hpp"
#include "common/core/text/concat.hpp"

namespace squawk::social {

[[noreturn]] void raise_platform_failure(const PlatformFactory& platform,
                                         const PlatformFailure& f) {
    const std::string who(platform.display_name);
    switch (f.kind) {
        case FailureKind::refused:
            throw validation_error({{f.field, text::concat({who, " refused: ", f.reason})}},
                                   text::concat({who, " did not accept these credentials."}));
        case FailureKind::not_accepted:
            if (f.http_status == 429) {
                nlohmann::json details = nlohmann::json::object();
                if (f.retry_after) details["retry_after_seconds"] = f.retry_after->count();
                throw ApiError(ErrorCode::PlatformRateLimited,
                               text::concat({who, " is limiting requests; retry later."}), details);
            }
            // The platform answered, with an error of its own (spec 7: 422, retryable).
            if (f.http_status != 0)
                throw ApiError(ErrorCode::PlatformUpstreamError,
                               text::concat({who, " failed to verify the account: ", f.reason}));
            [[fallthrough]];
        case FailureKind::unknown_outcome:
            throw ApiError(ErrorCode::PlatformUnreachable,
                           text::concat({who, " could not verify the account: ", f.reason}));
    }
    throw ApiError(ErrorCode::InternalError);
}

}  // namespace squawk::social
