// What the generation routes do with creations: accept one with its job (charged, durable),
// read and list them within a workspace, and delete one with its files, cancelling its job if it
// is still at work. Raises ApiError; returns domain types.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/generation/creation.hpp"
#include "common/domain/jobs/job_submitter.hpp"
#include "common/domain/media/media_settings.hpp"

#include <optional>
#include <string>

namespace squawk::generation {

struct SubmittedCreation {
    Creation creation;
    jobs::Job job;
};

class CreationService {
  public:
    CreationService(db::MysqlPool& mysql, jobs::JobSubmitter& submitter,
                    const config::MediaSettings& media)
        : mysql_(mysql), submitter_(submitter), media_(media) {}

    // `request` is what the client asked, as validated; it is also the job's payload. `payment`
    // is reserved with the job (402 INSUFFICIENT_BALANCE when the wallet cannot pay it).
    SubmittedCreation submit(long long workspace_id, CreationKind kind, const jobs::JobType& type,
                             const nlohmann::json& request, bool is_test,
                             const billing::Reservation* payment);
    // Throws NotFound when the workspace has no such creation of that kind.
    Creation get(long long workspace_id, CreationKind kind, const std::string& public_id);
    CreationPage list(long long workspace_id, CreationKind kind, long long offset, int limit);
    void remove(long long workspace_id, CreationKind kind, const std::string& public_id,
                const std::string& request_id);

  private:
    db::MysqlPool& mysql_;
    jobs::JobSubmitter& submitter_;
    const config::MediaSettings& media_;
};

}  // namespace squawk::generation
