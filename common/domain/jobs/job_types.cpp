#include "common/domain/jobs/job_types.hpp"

namespace squawk::jobs {

std::optional<JobType> find_job_type(std::string_view name) {
    for (const JobType& t : {kTextToSpeech, kGenerateArticle, kGenerateImage, kSpeechToText,
                             kGeneratePresentation, kGenerateVideo, kGenerateShort, kNoop,
                             kPublishTarget, kEditPost, kUnpublishPost, kSyncExternal})
        if (t.name == name) return t;
    return std::nullopt;
}

bool is_announced(std::string_view name) {
    const auto type = find_job_type(name);
    return !type || type->announced;
}

}  // namespace squawk::jobs
