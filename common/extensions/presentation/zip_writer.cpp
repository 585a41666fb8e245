#include "common/extensions/presentation/zip_writer.hpp"

#include <zip.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace squawk::presentation {
namespace {

struct ArchiveDiscard {
    void operator()(zip_t* archive) const { zip_discard(archive); }
};

[[noreturn]] void fail(zip_t* archive, const std::string& what) {
    throw std::runtime_error("cannot write the zip (" + what + "): " + zip_strerror(archive));
}

}  // namespace

void write_zip(const std::vector<PackagePart>& parts, const std::filesystem::path& path) {
    int error = 0;
    std::unique_ptr<zip_t, ArchiveDiscard> archive(
        zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error));
    if (!archive) {
        zip_error_t reason;
        zip_error_init_with_code(&reason, error);
        const std::string message = zip_error_strerror(&reason);
        zip_error_fini(&reason);
        throw std::runtime_error("cannot create " + path.string() + ": " + message);
    }
    for (const auto& part : parts) {
        // libzip reads the buffers at zip_close(); `parts` outlives that call.
        zip_source_t* source =
            zip_source_buffer(archive.get(), part.content.data(), part.content.size(), 0);
        if (!source) fail(archive.get(), part.name);
        const zip_int64_t index =
            zip_file_add(archive.get(), part.name.c_str(), source, ZIP_FL_ENC_UTF_8);
        if (index < 0) {
            zip_source_free(source);
            fail(archive.get(), part.name);
        }
        zip_set_file_compression(archive.get(), static_cast<zip_uint64_t>(index), ZIP_CM_DEFLATE,
                                 0);
    }
    if (zip_close(archive.get()) != 0) fail(archive.get(), path.string());
    archive.release();
}

}  // namespace squawk::presentation
