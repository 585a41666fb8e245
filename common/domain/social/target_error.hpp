// The errors a post target can end with, in one table of codes and wire names: a target's error
// is {code, message, detail}, as its post's view, post.* events and the publish jobs show it.
#pragma once

#include "common/core/names/wire_names.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace squawk::social {

// account_reconnect_required: its credentials cannot be opened. platform_rate_limited: the
// platform still asked to slow down for the account at the last attempt. platform_unavailable: not
// taken after the last attempt (or, on a change, retried). publish_outcome_unknown: sent with no
// answer recorded, so never sent again. publish_failed: the worker stopped before sending on every
// attempt; also a post's summary of its failed targets.
enum class TargetErrorCode {
    account_disconnected,
    account_reconnect_required,
    platform_unsupported,
    content_too_long,
    too_many_media,
    posting_cap_reached,
    media_unavailable,
    media_unsupported_type,
    media_too_large,
    platform_refused,
    platform_rate_limited,
    platform_unavailable,
    platform_edit_failed,
    platform_delete_failed,
    publish_outcome_unknown,
    publish_failed,
};

std::span<const char* const> wire_names(TargetErrorCode);

nlohmann::json target_error(TargetErrorCode code, std::string message,
                            nlohmann::json detail = nullptr);

}  // namespace squawk::social
