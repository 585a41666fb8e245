#include "common/extensions/providers/pocketsphinx/pocketsphinx_settings.hpp"

#include "common/core/config/section_schema.hpp"

namespace squawk::config {

SectionSchema<PocketsphinxSettings> pocketsphinx_schema() {
    using S = PocketsphinxSettings;
    return {{
                text("binary", &S::binary, false),
                text("ffmpeg", &S::ffmpeg, false),
                text("model_dir", &S::model_dir, false),
                integer("timeout_seconds", &S::timeout_seconds, 1, 86400),
            },
            {}};
}

}  // namespace squawk::config
