#include "common/domain/generation/creation_service.hpp"

#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "common/domain/billing/wallet.hpp"
#include "common/domain/generation/creation_repository.hpp"
#include "common/domain/jobs/job_repository.hpp"

namespace squawk::generation {
namespace {

ApiError creation_not_found(CreationKind kind) {
    return ApiError(ErrorCode::NotFound, std::string("No ") + name_of(kind) + " with this id.");
}

}  // namespace

SubmittedCreation CreationService::submit(long long workspace_id, CreationKind kind,
                                          const jobs::JobType& type, const nlohmann::json& request,
                                          bool is_test, const billing::Reservation* payment) {
    Creation creation;
    auto job = submitter_.submit_with(
        workspace_id, type, request, is_test,
        [&](db::Session& s, const jobs::Job& written) {
            creation = CreationRepository::insert(s, workspace_id, kind, written.id, request);
        },
        payment);
    creation.job_public_id = job.public_id;
    creation.status = job.status;
    return {std::move(creation), std::move(job)};
}

Creation CreationService::get(long long workspace_id, CreationKind kind,
                              const std::string& public_id) {
    auto found = mysql_.run(
        [&](db::Session& s) { return CreationRepository::find(s, workspace_id, kind, public_id); });
    if (!found) throw creation_not_found(kind);
    return std::move(*found);
}

CreationPage CreationService::list(long long workspace_id, CreationKind kind, long long offset,
                                   int limit) {
    return mysql_.run([&](db::Session& s) {
        return CreationRepository::list(s, workspace_id, kind, offset, limit);
    });
}

void CreationService::remove(long long workspace_id, CreationKind kind,
                             const std::string& public_id, const std::string& request_id) {
    // The job is cancelled in the same transaction, so a job still at work finds its creation
    // gone when it comes to record its files and throws them away (workers/generate/).
    const auto removed = mysql_.transaction([&](db::Session& s) {
        auto found = CreationRepository::find(s, workspace_id, kind, public_id);
        if (found) {
            jobs::JobRepository::cancel_many(s, {found->job_id});
            billing::Wallet::refund_cancelled_jobs(s, {found->job_id});
            CreationRepository::remove(s, *found);
        }
        return found;
    });
    if (!removed) throw creation_not_found(kind);
    // Rows first: a file left behind is garbage, a row without its file is a broken link.
    for (const auto& m : removed->media) {
        try {
            store_.remove(m.storage_path);
        } catch (const storage::StorageError& e) {
            log::warn("generated file not removed",
                      {{"request_id", request_id}, {"media_id", m.public_id}, {"error", e.what()}});
        }
    }
}

}  // namespace squawk::generation
