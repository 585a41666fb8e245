// The PocketSphinx transcription provider: its programs, the model it recognises with and how long
// one transcription may take. Section [providers.pocketsphinx].
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <string>

namespace squawk::config {

struct PocketsphinxSettings {
    std::string binary = "pocketsphinx_continuous";
    std::string ffmpeg = "ffmpeg";
    // Holds en-us/ (the acoustic model), en-us.lm.bin and cmudict-en-us.dict, as the Debian
    // package pocketsphinx-en-us lays them out.
    std::string model_dir = "/usr/share/pocketsphinx/model/en-us";
    int timeout_seconds = 600;  // for the whole transcription: decoding and recognition
};

SectionSchema<PocketsphinxSettings> pocketsphinx_schema();

}  // namespace squawk::config
