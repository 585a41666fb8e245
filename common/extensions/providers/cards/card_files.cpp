#include "common/extensions/providers/cards/card_files.hpp"

#include "common/domain/generation/provider_error.hpp"
#include "common/extensions/providers/cards/jpeg_encoder.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

namespace squawk::providers::cards {
namespace {

using generation::ProviderError;

struct FileClose {
    void operator()(std::FILE* file) const { std::fclose(file); }
};

[[noreturn]] void write_failed(const std::filesystem::path& output, const std::string& why) {
    throw ProviderError::retryable("cannot write card to " + output.string() + ": " + why);
}

void write_bytes(const std::string& bytes, const std::filesystem::path& output) {
    std::unique_ptr<std::FILE, FileClose> file(std::fopen(output.c_str(), "wb"));
    if (!file) write_failed(output, std::strerror(errno));
    if (std::fwrite(bytes.data(), 1, bytes.size(), file.get()) != bytes.size())
        write_failed(output, std::strerror(errno));
    // fclose flushes: a full disk shows up here.
    if (std::fclose(file.release()) != 0) write_failed(output, std::strerror(errno));
}

}  // namespace

void write_card(cairo_surface_t* card, generation::ImageFormat format,
                const std::filesystem::path& output, int jpeg_quality) {
    if (format == generation::ImageFormat::jpeg) {
        write_bytes(encode_jpeg(card, jpeg_quality), output);
        return;
    }
    const cairo_status_t status = cairo_surface_write_to_png(card, output.c_str());
    if (status != CAIRO_STATUS_SUCCESS) write_failed(output, cairo_status_to_string(status));
}

}  // namespace squawk::providers::cards
