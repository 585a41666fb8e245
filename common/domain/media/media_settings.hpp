// Where generated and uploaded files are kept. Section [media]; the rows are in
// media_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <string>

namespace squawk::config {

struct MediaSettings {
    std::string dir = "media";
};

SectionSchema<MediaSettings> media_schema();

}  // namespace squawk::config
