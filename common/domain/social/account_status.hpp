// The status of a connected social account, as its row stores it and clients see it; only a
// connected account is listed, published to or changed.
#pragma once

#include "common/core/names/wire_names.hpp"

namespace squawk::social {

enum class AccountStatus { connected, disconnected };

inline std::span<const char* const> wire_names(AccountStatus) {
    static constexpr const char* names[] = {"connected", "disconnected"};
    return names;
}

}  // namespace squawk::social
