#include "common/core/error/api_error.hpp"

#include <array>

namespace squawk {
namespace {

using Row = ErrorEntry;

// Spec section 7, plus the protocol errors every HTTP API needs (405, 413, 415, 416, 431, 503).
constexpr std::array kTable{
    Row{ErrorCode::BadRequest, {400, "BAD_REQUEST", false, "The request is malformed."}},
    Row{ErrorCode::InvalidRequest, {400, "INVALID_REQUEST", false, "The request is malformed."}},
    Row{ErrorCode::Unauthorized, {401, "UNAUTHORIZED", false, "An API key is required."}},
    Row{ErrorCode::InvalidApiKey, {401, "INVALID_API_KEY", false, "The API key is not valid."}},
    Row{ErrorCode::InsufficientBalance,
        {402, "INSUFFICIENT_BALANCE", false, "The wallet balance is too low for this call."}},
    Row{ErrorCode::Forbidden, {403, "FORBIDDEN", false, "Access to this resource is not allowed."}},
    Row{ErrorCode::InsufficientScope,
        {403, "INSUFFICIENT_SCOPE", false, "The API key lacks the scope this call needs."}},
    Row{ErrorCode::ConnectionScopeMissing,
        {403, "CONNECTION_SCOPE_MISSING", false, "The connected account lacks a permission."}},
    Row{ErrorCode::NotFound, {404, "RESOURCE_NOT_FOUND", false, "The resource was not found."}},
    Row{ErrorCode::MethodNotAllowed,
        {405, "METHOD_NOT_ALLOWED", false, "The method is not allowed on this path."}},
    Row{ErrorCode::Conflict,
        {409, "CONFLICT", true, "The request conflicts with the current state."}},
    Row{ErrorCode::IdempotencyConflict,
        {409, "IDEMPOTENCY_CONFLICT", false,
         "The idempotency key was used with a different request."}},
    Row{ErrorCode::DuplicateContent,
        {409, "DUPLICATE_CONTENT", false, "The same content was posted in the last 24 hours."}},
    Row{ErrorCode::PayloadTooLarge,
        {413, "PAYLOAD_TOO_LARGE", false, "The request body is larger than allowed."}},
    Row{ErrorCode::UnsupportedMediaType,
        {415, "UNSUPPORTED_MEDIA_TYPE", false, "The body must be application/json."}},
    // A download's Range starts past the end of the file; Content-Range states the size.
    Row{ErrorCode::RangeNotSatisfiable,
        {416, "RANGE_NOT_SATISFIABLE", false, "The requested range is outside the file."}},
    Row{ErrorCode::HeadersTooLarge,
        {431, "HEADERS_TOO_LARGE", false, "The request's headers are larger than allowed."}},
    Row{ErrorCode::ValidationError,
        {422, "VALIDATION_ERROR", false, "The request has invalid fields."}},
    Row{ErrorCode::ContentPolicyViolation,
        {422, "CONTENT_POLICY_VIOLATION", false, "The content is not allowed."}},
    Row{ErrorCode::PlatformDailyLimitReached,
        {422, "PLATFORM_DAILY_LIMIT_REACHED", false, "The platform's daily limit is reached."}},
    Row{ErrorCode::PostTypeUnsupported,
        {422, "POST_TYPE_UNSUPPORTED", false, "The platform does not accept this post type."}},
    Row{ErrorCode::NotUploaded, {422, "NOT_UPLOADED", false, "Nothing was uploaded yet."}},
    Row{ErrorCode::PlatformError, {422, "PLATFORM_ERROR", false, "The platform refused."}},
    Row{ErrorCode::PlatformUpstreamError,
        {422, "PLATFORM_UPSTREAM_ERROR", true, "The platform failed."}},
    Row{ErrorCode::ProviderError, {422, "PROVIDER_ERROR", true, "The provider failed."}},
    Row{ErrorCode::CreateFailed, {422, "CREATE_FAILED", false, "The platform did not create it."}},
    Row{ErrorCode::SeoProviderError, {422, "SEO_PROVIDER_ERROR", true, "The SEO provider failed."}},
    Row{ErrorCode::PlatformDeleteFailed,
        {422, "PLATFORM_DELETE_FAILED", false, "The platform did not delete it."}},
    Row{ErrorCode::ModelNotAvailable,
        {422, "MODEL_NOT_AVAILABLE", false, "The model is not available on this plan."}},
    Row{ErrorCode::JobFailed, {422, "JOB_FAILED", false, "The job failed."}},
    Row{ErrorCode::UnknownPlatformError,
        {422, "UNKNOWN_PLATFORM_ERROR", false, "The platform answered unexpectedly."}},
    Row{ErrorCode::RateLimitExceeded,
        {429, "RATE_LIMIT_EXCEEDED", true, "Too many requests; retry after the given delay."}},
    Row{ErrorCode::PlatformRateLimited,
        {429, "PLATFORM_RATE_LIMITED", true, "The platform limits publishing for this account."}},
    Row{ErrorCode::InternalError,
        {500, "INTERNAL_ERROR", true, "Something went wrong on our side; retrying is safe."}},
    // Spec 7: a platform that could not be reached at all is a 502; retrying shortly is safe.
    Row{ErrorCode::PlatformUnreachable,
        {502, "PLATFORM_UNREACHABLE", true, "The platform could not be reached; retry shortly.",
         false}},
    Row{ErrorCode::ServiceUnavailable,
        {503, "SERVICE_UNAVAILABLE", true, "A backing service is unavailable; retry shortly."}},
    Row{ErrorCode::SandboxUnavailable,
        {503, "SANDBOX_UNAVAILABLE", true, "The sandbox is unavailable."}},
};

constexpr bool in_enum_order() {
    for (size_t i = 0; i < kTable.size(); ++i)
        if (static_cast<size_t>(kTable[i].code) != i) return false;
    return true;
}
static_assert(in_enum_order(), "the error table lists each code once, in the enum's order");

}  // namespace

const ErrorInfo& error_info(ErrorCode code) {
    return kTable.at(static_cast<size_t>(code)).info;
}

std::span<const ErrorEntry> error_table() {
    return kTable;
}

ApiError::ApiError(ErrorCode code, std::string message, nlohmann::json details)
    : std::runtime_error(message.empty() ? error_info(code).message : message),
      code_(code),
      details_(details.is_null() ? nlohmann::json::object() : std::move(details)) {}

ApiError validation_error(const nlohmann::json& fields, std::string message) {
    return ApiError(ErrorCode::ValidationError, std::move(message), {{"fields", fields}});
}

}  // namespace squawk
