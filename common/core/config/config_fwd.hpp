// Names of the configuration types for headers that only pass them along: a header that holds a
// `const Config&` or declares a module's schema does not need every module's settings.
#pragma once

namespace squawk::config {

struct Config;
template <class Settings>
struct SectionSchema;

}  // namespace squawk::config
