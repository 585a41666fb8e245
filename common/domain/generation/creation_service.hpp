// What the generation routes do with creations: accept one with its job (charged, durable),
// read and list them within a workspace, and delete one with its files, cancelling its job if it
// is still at work. Raises ApiError; returns domain types.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/storage/object_store.hpp"
#include "common/domain/generation/creation.hpp"
#include "common/domain/jobs/job_submitter.hpp"

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
                    storage::ObjectStore& store)
        : mysql_(mysql), submitter_(submitter), store_(store) {}

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
    storage::ObjectStore& store_;
};

}  // namespace squawk::generation
