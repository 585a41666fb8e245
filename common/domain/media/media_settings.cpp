#include "common/domain/media/media_settings.hpp"

#include "common/core/config/section_schema.hpp"
#include "common/domain/media/upload_budget.hpp"

namespace squawk::config {

SectionSchema<MediaSettings> media_schema() {
    constexpr long long kGiB = 1024LL * 1024 * 1024;
    return {
        {text("dir", &MediaSettings::dir, false),
         integer("max_upload_bytes", &MediaSettings::max_upload_bytes, 1, 4 * kGiB),
         integer("upload_memory_budget_bytes", &MediaSettings::upload_memory_budget_bytes, 1,
                 64 * kGiB),
         integer("upload_url_ttl_seconds", &MediaSettings::upload_url_ttl_seconds, 1, 604800),
         text("ffprobe", &MediaSettings::ffprobe, false),
         integer("probe_timeout_seconds", &MediaSettings::probe_timeout_seconds, 1, 600),
         text("ffmpeg", &MediaSettings::ffmpeg, false),
         integer("transcode_timeout_seconds", &MediaSettings::transcode_timeout_seconds, 1, 7200)},
        [](MediaSettings& s, const std::string& section) {
            if (s.upload_memory_budget_bytes < media::kUploadBufferBytes)
                bad_value(section + ".upload_memory_budget_bytes",
                          "must be at least " + std::to_string(media::kUploadBufferBytes) +
                              " (one upload's buffer), or no large upload could ever run");
        }};
}

}  // namespace squawk::config
