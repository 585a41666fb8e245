#include "common/extensions/providers/cards/jpeg_encoder.hpp"

#include "common/domain/generation/provider_error.hpp"

// jpeglib.h needs size_t and FILE declared before it.
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <jpeglib.h>

namespace squawk::providers::cards {
namespace {

// libjpeg's default error handler exits the process; this one jumps back to encode_jpeg. It
// lives on the heap so that nothing libjpeg changes between setjmp and longjmp is an automatic
// variable of the function that called setjmp.
struct Compression {
    jpeg_compress_struct info{};
    jpeg_error_mgr errors{};
    std::jmp_buf failed{};
    char message[JMSG_LENGTH_MAX] = {};
    unsigned char* output = nullptr;  // malloc'd by libjpeg's memory destination
    unsigned long output_size = 0;

    ~Compression() {
        jpeg_destroy_compress(&info);
        std::free(output);
    }
};

[[noreturn]] void on_error(j_common_ptr info) {
    auto* compression = static_cast<Compression*>(info->client_data);
    info->err->format_message(info, compression->message);
    std::longjmp(compression->failed, 1);
}

// Cairo's 32-bit pixels are 0xAARRGGBB (or 0xXXRRGGBB) in native byte order.
void to_rgb_row(const unsigned char* cairo_row, int width, unsigned char* rgb) {
    for (int x = 0; x < width; ++x) {
        std::uint32_t pixel;
        std::memcpy(&pixel, cairo_row + 4 * x, sizeof pixel);
        rgb[3 * x] = static_cast<unsigned char>(pixel >> 16);
        rgb[3 * x + 1] = static_cast<unsigned char>(pixel >> 8);
        rgb[3 * x + 2] = static_cast<unsigned char>(pixel);
    }
}

}  // namespace

std::string encode_jpeg(cairo_surface_t* card, int quality) {
    cairo_surface_flush(card);
    const int width = cairo_image_surface_get_width(card);
    const int height = cairo_image_surface_get_height(card);
    const int stride = cairo_image_surface_get_stride(card);
    const unsigned char* pixels = cairo_image_surface_get_data(card);

    auto compression = std::make_unique<Compression>();
    std::vector<unsigned char> row(static_cast<std::size_t>(width) * 3);
    Compression* c = compression.get();
    c->info.err = jpeg_std_error(&c->errors);
    c->errors.error_exit = on_error;
    c->info.client_data = c;
    if (setjmp(c->failed))
        throw generation::ProviderError::retryable(std::string("JPEG encoding failed: ") +
                                                   c->message);

    jpeg_create_compress(&c->info);
    jpeg_mem_dest(&c->info, &c->output, &c->output_size);
    c->info.image_width = static_cast<JDIMENSION>(width);
    c->info.image_height = static_cast<JDIMENSION>(height);
    c->info.input_components = 3;
    c->info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&c->info);
    jpeg_set_quality(&c->info, quality, TRUE);
    jpeg_start_compress(&c->info, TRUE);
    while (c->info.next_scanline < c->info.image_height) {
        to_rgb_row(pixels + static_cast<std::size_t>(c->info.next_scanline) * stride, width,
                   row.data());
        JSAMPROW rows[] = {row.data()};
        jpeg_write_scanlines(&c->info, rows, 1);
    }
    jpeg_finish_compress(&c->info);
    return {reinterpret_cast<const char*>(c->output), c->output_size};
}

}  // namespace squawk::providers::cards
