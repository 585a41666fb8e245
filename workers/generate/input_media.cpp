#include "workers/generate/input_media.hpp"

#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "workers/errors.hpp"

#include <filesystem>

namespace squawk::workers::generate {

storage::LocalCopy input_file(TaskContext& context, const jobs::ClaimedJob& job,
                              const media::Media& m, const std::string& field) {
    // The object's own name ends the scratch name: programs that look at extensions still can.
    const auto scratch = std::filesystem::path(context.config().media.dir) / ".work" /
                         (job.public_id + "-" + crypto::hex(crypto::random_bytes(6)) + "-" +
                          std::filesystem::path(m.storage_path).filename().string());
    return context.executor().run([&] {
        try {
            if (!context.storage().local_path(m.storage_path))
                std::filesystem::create_directories(scratch.parent_path());
            return storage::LocalCopy(context.storage(), m.storage_path, scratch);
        } catch (const storage::StorageError& e) {
            if (e.code() == "NoSuchKey")
                throw PermanentError("the file of media " + m.public_id + " is gone",
                                     {{"field", field}});
            throw RetryableError(std::string("cannot read media ") + m.public_id + ": " + e.what());
        } catch (const std::filesystem::filesystem_error& e) {
            throw RetryableError(e.what());
        }
    });
}

}  // namespace squawk::workers::generate
