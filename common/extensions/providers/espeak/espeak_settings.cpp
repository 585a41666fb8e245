#include "common/extensions/providers/espeak/espeak_settings.hpp"

#include "common/core/config/section_schema.hpp"

namespace squawk::config {

SectionSchema<EspeakSettings> espeak_schema() {
    using S = EspeakSettings;
    return {{
                text("binary", &S::binary, false),
                integer("timeout_seconds", &S::timeout_seconds, 1, 3600),
            },
            {}};
}

}  // namespace squawk::config
