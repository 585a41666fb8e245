#include "common/domain/social/target_error.hpp"

namespace squawk::social {

std::span<const char* const> wire_names(TargetErrorCode) {
    static constexpr const char* names[] = {"ACCOUNT_DISCONNECTED",    "ACCOUNT_RECONNECT_REQUIRED",
                                            "PLATFORM_UNSUPPORTED",    "CONTENT_TOO_LONG",
                                            "TOO_MANY_MEDIA",          "POSTING_CAP_REACHED",
                                            "MEDIA_UNAVAILABLE",       "MEDIA_UNSUPPORTED_TYPE",
                                            "MEDIA_TOO_LARGE",         "PLATFORM_REFUSED",
                                            "PLATFORM_RATE_LIMITED",   "PLATFORM_UNAVAILABLE",
                                            "PLATFORM_EDIT_FAILED",    "PLATFORM_DELETE_FAILED",
                                            "PUBLISH_OUTCOME_UNKNOWN", "PUBLISH_FAILED"};
    return names;
}

nlohmann::json target_error(TargetErrorCode code, std::string message, nlohmann::json detail) {
    return {{"code", code}, {"message", std::move(message)}, {"detail", std::move(detail)}};
}

}  // namespace squawk::social
