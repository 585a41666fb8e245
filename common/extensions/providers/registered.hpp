// The generation providers compiled into Squawk. Adding a provider adds its folder beside this
// file and one line to registered.cpp; tasks and configuration find it here by name.
#pragma once

#include "common/domain/generation/provider_registry.hpp"

namespace squawk::providers {

const generation::ProviderRegistry& registered();

}  // namespace squawk::providers
