#include "workers/generate/created_files.hpp"

#include "common/core/config/config.hpp"
#include "common/domain/billing/wallet.hpp"
#include "common/domain/generation/creation_repository.hpp"
#include "workers/errors.hpp"

namespace squawk::workers::generate {

namespace fs = std::filesystem;

namespace {

std::string partial_name(const std::string& file_name, int attempt) {
    return file_name + ".part-" + std::to_string(attempt);
}

}  // namespace

TempFile::~TempFile() {
    std::error_code ignored;
    fs::remove(path_, ignored);
}

CreatedFile::CreatedFile(const jobs::ClaimedJob& job, const config::Config& config,
                         const std::string& role, const std::string& extension)
    : directory(fs::path(config.media.dir) / std::to_string(job.workspace_id)),
      file_name(job.public_id + (role == "main" ? "" : "-" + role) + "." + extension),
      // Beside the final file, so the move is an atomic rename; named by attempt, so a later
      // attempt knows what a killed one left behind.
      temp(directory / partial_name(file_name, job.attempts)),
      attempt(job.attempts) {
    record.workspace_id = job.workspace_id;
    record.source_job_id = job.id;
    record.source_role = role;
    record.storage_path = std::to_string(job.workspace_id) + "/" + file_name;
}

void prepare_directory(TaskContext& context, const fs::path& directory) {
    context.executor().run([&] {
        std::error_code error;
        fs::create_directories(directory, error);
        if (error)
            throw RetryableError("cannot create " + directory.string() + ": " + error.message());
    });
}

void settle_payment(db::Session& s, const jobs::ClaimedJob& job, long long billable_quantity) {
    if (!job.charge_ledger_id) return;
    if (const auto open = billing::Wallet::open_reservation(s, job.id))
        billing::Wallet::settle(s, *open, billable_quantity);
}

void store_created_file(TaskContext& context, CreatedFile& file) {
    context.executor().run([&] {
        for (int earlier = 1; earlier < file.attempt; ++earlier) {
            std::error_code ignored;
            fs::remove(file.directory / partial_name(file.file_name, earlier), ignored);
        }
        std::error_code error;
        file.record.size_bytes = static_cast<long long>(fs::file_size(file.temp.path(), error));
        if (error) throw RetryableError("cannot stat a generated file: " + error.message());
        try {
            context.storage().put_file(file.record.storage_path, file.temp.path(),
                                       file.record.mime_type);
        } catch (const storage::StorageError& e) {
            throw RetryableError(std::string("cannot store a generated file: ") + e.what());
        }
    });
}

RecordedCreation record_creation(TaskContext& context, const jobs::ClaimedJob& job,
                                 const nlohmann::json& output, std::vector<CreatedFile*> files,
                                 long long billable_quantity) {
    // Last safe point: past here the files and the records are the job's effects.
    context.stop_if_cancelled();
    for (auto* f : files) store_created_file(context, *f);
    auto recorded = context.in_transaction([&](db::Session& s) -> std::optional<RecordedCreation> {
        // Locks the job's row before the creation's, in the order a delete takes them.
        const auto open =
            job.charge_ledger_id ? billing::Wallet::open_reservation(s, job.id) : std::nullopt;
        const auto id = generation::CreationRepository::set_output(s, job.id, output);
        if (!id) return std::nullopt;
        if (open) billing::Wallet::settle(s, *open, billable_quantity);
        RecordedCreation r{*id, {}};
        for (auto* f : files)
            r.media.push_back(media::MediaRepository::upsert_for_job(s, f->record));
        return r;
    });
    if (!recorded) {
        context.executor().run([&] {
            for (auto* f : files) {
                try {
                    context.storage().remove(f->record.storage_path);
                } catch (const storage::StorageError&) {
                    // Garbage at worst: no record names it.
                }
            }
        });
        throw TaskCancelled();
    }
    return std::move(*recorded);
}

std::string download_url(const config::Config& config, const media::Media& m) {
    return config.api.public_base_url + "/media/" + m.public_id + "/download";
}

}  // namespace squawk::workers::generate
