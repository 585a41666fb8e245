#include "common/extensions/providers/openai/openai_settings.hpp"

#include "common/core/config/section_schema.hpp"

#include <algorithm>

namespace squawk::config {
namespace {

using S = OpenAiSettings;

Row<S> base_url() {
    return {"base_url", [](S& s, const Scalar& v, const std::string& path) {
                std::string url = as_text(v, path, false);
                if (!url.starts_with("https://") && !url.starts_with("http://"))
                    bad_value(path, "must be an http:// or https:// URL");
                while (url.ends_with('/')) url.pop_back();
                s.base_url = std::move(url);
            }};
}

// "a, b,c" -> {a, b, c}: names are trimmed, and none may be empty, so the default always exists.
Row<S> model_list(std::string key, std::vector<std::string> S::*field) {
    return {std::move(key), [field](S& s, const Scalar& v, const std::string& path) {
                const std::string text = as_text(v, path, false);
                std::vector<std::string> models;
                size_t start = 0;
                for (;;) {
                    const size_t comma = std::min(text.find(',', start), text.size());
                    std::string name = text.substr(start, comma - start);
                    name.erase(0, std::min(name.find_first_not_of(" \t"), name.size()));
                    name.erase(name.find_last_not_of(" \t") + 1);
                    if (name.empty())
                        bad_value(path, "must be names separated by commas, none empty");
                    models.push_back(std::move(name));
                    if (comma == text.size()) break;
                    start = comma + 1;
                }
                s.*field = std::move(models);
            }};
}

}  // namespace

SectionSchema<OpenAiSettings> openai_schema() {
    return {{
                base_url(),
                text("api_key", &S::api_key),
                model_list("text_models", &S::text_models),
                model_list("image_models", &S::image_models),
                model_list("transcription_models", &S::transcription_models),
                model_list("speech_models", &S::speech_models),
                model_list("speech_voices", &S::speech_voices),
                integer("timeout_seconds", &S::timeout_seconds, 1, 3600),
                integer("max_response_bytes", &S::max_response_bytes, 65536, 1LL << 30),
            },
            {}};
}

}  // namespace squawk::config
