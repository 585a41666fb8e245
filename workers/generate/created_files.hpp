// Where a generation job puts what it made: files written under a temporary name in the
// workspace's media directory, put into the object store (a rename when it is local), and
// recorded with the job's creation in one transaction. A job whose creation was deleted
// meanwhile throws its files away and stops.
#pragma once

#include "common/domain/billing/billable_quantity.hpp"
#include "common/domain/jobs/job.hpp"
#include "common/domain/media/media_repository.hpp"
#include "workers/tasks/task_context.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace squawk::workers::generate {

// Removes the file unless it was moved away.
class TempFile {
  public:
    explicit TempFile(std::filesystem::path path) : path_(std::move(path)) {}
    ~TempFile();
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

// A file of the job's: `file_name` is unique to the job and role, so a rerun writes over it.
struct CreatedFile {
    explicit CreatedFile(const jobs::ClaimedJob& job, const config::Config& config,
                         const std::string& role, const std::string& extension);

    std::filesystem::path directory;  // the workspace's, under the media directory
    std::string file_name;
    TempFile temp;        // where the provider writes
    int attempt;          // the job's, which names `temp`
    media::Media record;  // filled in by the job before record_creation()
};

// Creates the workspace's media directory (on the executor); RetryableError when it cannot.
void prepare_directory(TaskContext& context, const std::filesystem::path& directory);

// Puts the finished file into the object store under its record's key (record.mime_type set),
// records its size, and removes what attempts killed mid-render left behind. Blocks only the
// fiber; RetryableError when the file or the store fails.
void store_created_file(TaskContext& context, CreatedFile& file);

struct RecordedCreation {
    std::string public_id;
    std::vector<media::Media> media;
};

// Stores `files` (store_created_file), records them and `output` with the job's creation, and
// settles a paid job's reservation at price x `billable_quantity` (the units it made: 1 article or
// image, the slides written, whole seconds of the file made or of audio transcribed; billing.md)
// in the same transaction. Throws TaskCancelled (after removing the files) when the creation is
// gone.
RecordedCreation record_creation(TaskContext& context, const jobs::ClaimedJob& job,
                                 const nlohmann::json& output, std::vector<CreatedFile*> files,
                                 long long billable_quantity);

// Settles a paid job's reservation at price x `billable_quantity`; nothing for an unpaid job or
// one settled or refunded already. Runs in the transaction that records what the job made, before
// any other row of the job's is locked (a delete locks the job's row first too).
void settle_payment(db::Session& s, const jobs::ClaimedJob& job, long long billable_quantity);

// The absolute URL a client downloads `m` from.
std::string download_url(const config::Config& config, const media::Media& m);

}  // namespace squawk::workers::generate
