#include "common/extensions/presentation/slide_image.hpp"

#include <jpeglib.h>

#include <csetjmp>
#include <cstring>
#include <stdexcept>
#include <string_view>

namespace squawk::presentation {
namespace {

using providers::cards::SurfacePtr;

struct PngReader {
    std::string_view rest;
};

cairo_status_t read_png(void* closure, unsigned char* data, unsigned int length) {
    auto* reader = static_cast<PngReader*>(closure);
    if (reader->rest.size() < length) return CAIRO_STATUS_READ_ERROR;
    std::memcpy(data, reader->rest.data(), length);
    reader->rest.remove_prefix(length);
    return CAIRO_STATUS_SUCCESS;
}

SurfacePtr decode_png(const std::string& bytes) {
    PngReader reader{bytes};
    SurfacePtr surface(cairo_image_surface_create_from_png_stream(read_png, &reader));
    if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
        throw std::invalid_argument("the picture is not a readable PNG");
    return surface;
}

// libjpeg reports errors through a callback that must not return: it jumps back here.
struct JpegError {
    jpeg_error_mgr manager;
    std::jmp_buf back;
};

void jpeg_failed(j_common_ptr info) {
    std::longjmp(reinterpret_cast<JpegError*>(info->err)->back, 1);
}

SurfacePtr decode_jpeg(const std::string& bytes) {
    jpeg_decompress_struct info;
    JpegError error;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = jpeg_failed;
    // Only C objects live past setjmp, so a longjmp skips no destructor; the one assigned after
    // it is volatile so its value survives the jump.
    cairo_surface_t* volatile surface = nullptr;
    if (setjmp(error.back)) {
        jpeg_destroy_decompress(&info);
        if (surface) cairo_surface_destroy(surface);
        throw std::invalid_argument("the picture is not a readable JPEG");
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, reinterpret_cast<const unsigned char*>(bytes.data()),
                 static_cast<unsigned long>(bytes.size()));
    jpeg_read_header(&info, TRUE);
    // Cairo's RGB24 is B, G, R, unused in memory on little-endian machines.
    info.out_color_space = JCS_EXT_BGRX;
    jpeg_start_decompress(&info);
    surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, static_cast<int>(info.output_width),
                                         static_cast<int>(info.output_height));
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        jpeg_destroy_decompress(&info);
        cairo_surface_destroy(surface);
        throw std::invalid_argument("the picture is too large to draw");
    }
    unsigned char* pixels = cairo_image_surface_get_data(surface);
    const int stride = cairo_image_surface_get_stride(surface);
    while (info.output_scanline < info.output_height) {
        unsigned char* line = pixels + static_cast<size_t>(info.output_scanline) * stride;
        jpeg_read_scanlines(&info, &line, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    cairo_surface_mark_dirty(surface);
    return SurfacePtr(surface);
}

}  // namespace

SurfacePtr decode_image(const std::string& bytes, const std::string& extension) {
    if (extension == "png") return decode_png(bytes);
    if (extension == "jpeg") return decode_jpeg(bytes);
    throw std::invalid_argument("the picture is " + extension + ", not PNG or JPEG");
}

}  // namespace squawk::presentation
