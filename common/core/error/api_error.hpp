// Every error the API can answer is one value of ErrorCode; the table in api_error.cpp gives its
// HTTP status and wire code, so handlers raise ApiError and one place writes the envelope.
#pragma once

#include <nlohmann/json.hpp>

#include <span>
#include <stdexcept>
#include <string>

namespace squawk {

enum class ErrorCode {
    BadRequest,
    InvalidRequest,
    Unauthorized,
    InvalidApiKey,
    InsufficientBalance,
    Forbidden,
    InsufficientScope,
    ConnectionScopeMissing,
    NotFound,
    MethodNotAllowed,
    Conflict,
    IdempotencyConflict,
    DuplicateContent,
    PayloadTooLarge,
    UnsupportedMediaType,
    RangeNotSatisfiable,
    HeadersTooLarge,
    ValidationError,
    ContentPolicyViolation,
    PlatformDailyLimitReached,
    PostTypeUnsupported,
    NotUploaded,
    PlatformError,
    PlatformUpstreamError,
    ProviderError,
    CreateFailed,
    SeoProviderError,
    PlatformDeleteFailed,
    ModelNotAvailable,
    JobFailed,
    UnknownPlatformError,
    RateLimitExceeded,
    PlatformRateLimited,
    InternalError,
    PlatformUnreachable,
    ServiceUnavailable,
    SandboxUnavailable,
};

struct ErrorInfo {
    int http_status;
    const char* code;      // the wire value of error.code
    bool retryable;        // whether the same request may succeed later
    const char* message;   // default message when the raiser gives none
    bool has_body = true;  // false: the status alone answers (spec 7: an unreachable platform)
};

const ErrorInfo& error_info(ErrorCode code);

struct ErrorEntry {
    ErrorCode code;
    ErrorInfo info;
};

// The whole table, one entry per code in the enum's order.
std::span<const ErrorEntry> error_table();

class ApiError : public std::runtime_error {
  public:
    ApiError(ErrorCode code, std::string message = {},
             nlohmann::json details = nlohmann::json::object());

    ErrorCode code() const { return code_; }
    const ErrorInfo& info() const { return error_info(code_); }
    const nlohmann::json& details() const { return details_; }

  private:
    ErrorCode code_;
    nlohmann::json details_;
};

// 422 VALIDATION_ERROR with details.fields: one entry per offending field.
ApiError validation_error(const nlohmann::json& fields, std::string message = {});

}  // namespace squawk
