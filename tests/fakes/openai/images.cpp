// POST /v1/images/generations: a real PNG or JPEG of the size asked, drawn with cairo in colours
// taken from the prompt, returned base64-encoded in data[0].b64_json.
#include "tests/fakes/openai/fake_openai.hpp"

#include <cairo.h>
#include <jpeglib.h>

#include <cstdio>
#include <functional>
#include <memory>

namespace squawk::fakes::openai {
namespace {

using Surface = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;

Surface draw(const std::string& prompt, int width, int height) {
    Surface surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height),
                    cairo_surface_destroy);
    cairo_t* cr = cairo_create(surface.get());
    const size_t hash = std::hash<std::string>{}(prompt);
    const auto channel = [&](int shift) { return ((hash >> shift) & 0xFF) / 255.0; };
    cairo_pattern_t* gradient = cairo_pattern_create_linear(0, 0, width, height);
    cairo_pattern_add_color_stop_rgb(gradient, 0, channel(0), channel(8), channel(16));
    cairo_pattern_add_color_stop_rgb(gradient, 1, channel(24), channel(32), channel(40));
    cairo_set_source(cr, gradient);
    cairo_paint(cr);
    cairo_pattern_destroy(gradient);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.6);
    cairo_arc(cr, width / 2.0, height / 2.0, std::min(width, height) / 4.0, 0, 6.2832);
    cairo_fill(cr);
    cairo_destroy(cr);
    cairo_surface_flush(surface.get());
    return surface;
}

std::string png_bytes(cairo_surface_t* surface) {
    std::string bytes;
    cairo_surface_write_to_png_stream(
        surface,
        [](void* out, const unsigned char* data, unsigned int length) {
            static_cast<std::string*>(out)->append(reinterpret_cast<const char*>(data), length);
            return CAIRO_STATUS_SUCCESS;
        },
        &bytes);
    return bytes;
}

std::string jpeg_bytes(cairo_surface_t* surface) {
    const int width = cairo_image_surface_get_width(surface);
    const int height = cairo_image_surface_get_height(surface);
    const int stride = cairo_image_surface_get_stride(surface);
    const unsigned char* pixels = cairo_image_surface_get_data(surface);
    jpeg_compress_struct info{};
    jpeg_error_mgr errors{};
    info.err = jpeg_std_error(&errors);
    jpeg_create_compress(&info);
    unsigned char* out = nullptr;
    unsigned long size = 0;
    jpeg_mem_dest(&info, &out, &size);
    info.image_width = static_cast<JDIMENSION>(width);
    info.image_height = static_cast<JDIMENSION>(height);
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, 85, TRUE);
    jpeg_start_compress(&info, TRUE);
    std::vector<unsigned char> row(static_cast<size_t>(width) * 3);
    while (info.next_scanline < info.image_height) {
        // RGB24 is one native-endian 32-bit word per pixel: 0x00RRGGBB.
        const auto* words = reinterpret_cast<const uint32_t*>(pixels + info.next_scanline * stride);
        for (int x = 0; x < width; ++x) {
            row[x * 3] = static_cast<unsigned char>(words[x] >> 16);
            row[x * 3 + 1] = static_cast<unsigned char>(words[x] >> 8);
            row[x * 3 + 2] = static_cast<unsigned char>(words[x]);
        }
        JSAMPROW rows[] = {row.data()};
        jpeg_write_scanlines(&info, rows, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    std::string bytes(reinterpret_cast<const char*>(out), size);
    std::free(out);
    return bytes;
}

std::string base64(const std::string& bytes) {
    static constexpr char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string text;
    text.reserve((bytes.size() + 2) / 3 * 4);
    for (size_t i = 0; i < bytes.size(); i += 3) {
        uint32_t group = static_cast<unsigned char>(bytes[i]) << 16;
        if (i + 1 < bytes.size()) group |= static_cast<unsigned char>(bytes[i + 1]) << 8;
        if (i + 2 < bytes.size()) group |= static_cast<unsigned char>(bytes[i + 2]);
        text += alphabet[(group >> 18) & 63];
        text += alphabet[(group >> 12) & 63];
        text += i + 1 < bytes.size() ? alphabet[(group >> 6) & 63] : '=';
        text += i + 2 < bytes.size() ? alphabet[group & 63] : '=';
    }
    return text;
}

// "WxH" with each side 1..4096; false otherwise.
bool parse_size(const std::string& size, int& width, int& height) {
    char extra = 0;
    return std::sscanf(size.c_str(), "%dx%d%c", &width, &height, &extra) == 2 && width > 0 &&
           height > 0 && width <= 4096 && height <= 4096;
}

}  // namespace

HttpAnswer image_generation(const HttpRequest& request) {
    const auto body = nlohmann::json::parse(request.body, nullptr, false);
    if (!body.is_object())
        return error_answer(400, "We could not parse the JSON body of your request.",
                            "invalid_request_error");
    if (!body.value("prompt", nlohmann::json()).is_string() || body["prompt"] == "")
        return error_answer(400, "Missing required parameter: 'prompt'.", "invalid_request_error",
                            "prompt", "missing_required_parameter");
    const std::string model = body.value("model", "dall-e-3");
    if (!known_model(model)) return unknown_model(model);
    if (body.value("n", 1) != 1)
        return error_answer(400, "This fake draws one image per request.", "invalid_request_error",
                            "n");
    int width = 0;
    int height = 0;
    if (!parse_size(body.value("size", "1024x1024"), width, height))
        return error_answer(400, "Invalid size: expected WIDTHxHEIGHT.", "invalid_request_error",
                            "size");
    const std::string format = body.value("output_format", "png");
    if (format != "png" && format != "jpeg")
        return error_answer(400, "This fake draws png or jpeg only.", "invalid_request_error",
                            "output_format");
    if (body.value("response_format", "b64_json") != "b64_json")
        return error_answer(400, "This fake answers b64_json only.", "invalid_request_error",
                            "response_format");
    const auto surface = draw(body["prompt"], width, height);
    const std::string bytes =
        format == "png" ? png_bytes(surface.get()) : jpeg_bytes(surface.get());
    return json_answer({{"created", now_seconds()},
                        {"data", {{{"b64_json", base64(bytes)}}}},
                        {"output_format", format},
                        {"size", std::to_string(width) + "x" + std::to_string(height)}});
}

}  // namespace squawk::fakes::openai
