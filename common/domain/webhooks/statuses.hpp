// The statuses of webhook deliveries and endpoints, as rows store them and clients see them: each
// a closed set with one name table.
#pragma once

#include "common/core/names/wire_names.hpp"

namespace squawk::webhooks {

enum class DeliveryStatus { pending, delivering, retrying, delivered, failed, dead_letter, held };

inline std::span<const char* const> wire_names(DeliveryStatus) {
    static constexpr const char* names[] = {"pending", "delivering",  "retrying", "delivered",
                                            "failed",  "dead_letter", "held"};
    return names;
}

// `deleted` endpoints stay for the delivery log and are never shown.
enum class EndpointStatus { active, paused, failing, deleted };

inline std::span<const char* const> wire_names(EndpointStatus) {
    static constexpr const char* names[] = {"active", "paused", "failing", "deleted"};
    return names;
}

}  // namespace squawk::webhooks
