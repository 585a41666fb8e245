#include "common/domain/media/media_settings.hpp"

#include "common/core/config/section_schema.hpp"

namespace squawk::config {

SectionSchema<MediaSettings> media_schema() {
    return {{text("dir", &MediaSettings::dir, false)}, {}};
}

}  // namespace squawk::config
