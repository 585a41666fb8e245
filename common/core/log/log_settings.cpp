#include "common/core/log/log_settings.hpp"

#include "common/core/config/section_schema.hpp"

namespace squawk::config {

SectionSchema<LogSettings> log_schema() {
    return {{{"level",
              [](LogSettings& log, const Scalar& value, const std::string& path) {
                  const auto* v = std::get_if<std::string>(&value);
                  if (!v || (*v != "debug" && *v != "info" && *v != "warn" && *v != "error"))
                      bad_value(path, "expected one of debug, info, warn, error");
                  log.level = *v;
              }}},
            {}};
}

}  // namespace squawk::config
