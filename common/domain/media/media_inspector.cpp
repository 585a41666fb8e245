#include "common/domain/media/media_inspector.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/process/subprocess.hpp"
#include "common/domain/media/media_types.hpp"

#include <magic.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace squawk::media {
namespace {

// A magic_t is not thread-safe: each thread opens its own once, and closes it when it ends.
class MagicHandle {
  public:
    MagicHandle() : handle_(magic_open(MAGIC_MIME_TYPE)) {
        if (handle_ && magic_load(handle_, nullptr) != 0) {
            magic_close(handle_);
            handle_ = nullptr;
        }
    }
    ~MagicHandle() {
        if (handle_) magic_close(handle_);
    }
    MagicHandle(const MagicHandle&) = delete;
    MagicHandle& operator=(const MagicHandle&) = delete;

    std::string mime_type_of(const std::string& path) {
        if (!handle_) throw std::runtime_error("libmagic could not load its database");
        const char* type = magic_file(handle_, path.c_str());
        if (!type) throw std::runtime_error(std::string("libmagic: ") + magic_error(handle_));
        return type;
    }

  private:
    magic_t handle_;
};

std::string detected_mime_type(const std::string& path) {
    thread_local MagicHandle magic;
    return magic.mime_type_of(path);
}

// Removes a file when it goes out of scope.
class ScratchFile {
  public:
    explicit ScratchFile(std::string path) : path_(std::move(path)) {}
    ~ScratchFile() {
        std::error_code ec;
        std::filesystem::remove(path_, ec);
    }
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;
    const std::string& path() const { return path_; }

  private:
    std::string path_;
};

std::string first_line(const std::string& text) {
    std::string line = text.substr(0, text.find('\n'));
    if (line.size() > 200) line.resize(200);
    return line;
}

// ffprobe's report on the file: its format and streams. Any error it prints means the file is
// damaged, even when it still exits 0 (a truncated PNG does).
nlohmann::json probe(const std::string& path, const config::MediaSettings& settings) {
    const ScratchFile report(path + ".probe-" + crypto::hex(crypto::random_bytes(6)) + ".json");
    process::SubprocessRequest request;
    // "file:" keeps ffprobe from reading any part of the path as a protocol or an option.
    request.argv = {settings.ffprobe, "-v", "error",       "-print_format", "json", "-show_format",
                    "-show_streams",  "-o", report.path(), "file:" + path};
    request.timeout = std::chrono::seconds(settings.probe_timeout_seconds);
    const auto result = process::run_subprocess(request);
    if (result.timed_out) throw UnacceptableMedia("the file could not be read in time");
    if (result.exit_code != 0 || !result.stderr_text.empty())
        throw UnacceptableMedia("the file is corrupt or truncated (" +
                                first_line(result.stderr_text) + ")");
    std::ifstream in(report.path());
    auto parsed = nlohmann::json::parse(std::istreambuf_iterator<char>(in),
                                        std::istreambuf_iterator<char>(), nullptr, false);
    if (!parsed.is_object()) throw std::runtime_error("ffprobe wrote no JSON report");
    return parsed;
}

// A stream that is the picture of the file, not cover art attached to audio.
bool is_picture_stream(const nlohmann::json& stream) {
    if (stream.value("codec_type", "") != "video") return false;
    const auto disposition = stream.value("disposition", nlohmann::json::object());
    return disposition.value("attached_pic", 0) == 0;
}

const nlohmann::json* first_stream(const nlohmann::json& report, bool picture) {
    const auto streams = report.find("streams");
    if (streams == report.end() || !streams->is_array()) return nullptr;
    for (const auto& stream : *streams) {
        if (picture ? is_picture_stream(stream) : stream.value("codec_type", "") == "audio")
            return &stream;
    }
    return nullptr;
}

std::optional<double> duration_of(const nlohmann::json& report) {
    const auto format = report.value("format", nlohmann::json::object());
    const std::string text = format.value("duration", "");
    if (text.empty()) return std::nullopt;
    try {
        const double seconds = std::stod(text);
        if (!std::isfinite(seconds) || seconds < 0) return std::nullopt;
        return std::round(seconds * 1000) / 1000;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

void take_dimensions(const nlohmann::json& stream, Inspection& out) {
    const int width = stream.value("width", 0);
    const int height = stream.value("height", 0);
    if (width <= 0 || height <= 0) throw UnacceptableMedia("the picture has no dimensions");
    out.width = width;
    out.height = height;
}

// A PDF written to the end closes with %%EOF in its last kilobyte.
void check_pdf(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    const auto size = static_cast<long long>(in.tellg());
    const long long tail = std::min(size, 1024LL);
    std::string bytes(static_cast<size_t>(tail), '\0');
    in.seekg(size - tail);
    in.read(bytes.data(), tail);
    if (bytes.find("%%EOF") == std::string::npos)
        throw UnacceptableMedia("the PDF is truncated (no %%EOF trailer)");
}

}  // namespace

Inspection inspect_media(const std::string& path, const config::MediaSettings& settings) {
    const std::string detected = detected_mime_type(path);
    const MediaType* type = accepted_type(detected);
    if (!type) throw UnacceptableMedia("unsupported file type " + detected);
    Inspection out;
    out.kind = type->kind;
    out.mime_type = type->mime_type;
    out.extension = type->extension;
    if (out.kind == "document") {
        check_pdf(path);
        return out;
    }
    const auto report = probe(path, settings);
    const auto* picture = first_stream(report, true);
    const auto* sound = first_stream(report, false);
    if (out.kind == "image") {
        if (!picture) throw UnacceptableMedia("the image has no picture");
        take_dimensions(*picture, out);
        return out;
    }
    // An MP4 container with sound only is an M4A file.
    if (out.mime_type == "video/mp4" && !picture && sound) {
        out.kind = "audio";
        out.mime_type = "audio/mp4";
        out.extension = "m4a";
    }
    if (out.kind == "video") {
        if (!picture) throw UnacceptableMedia("the video has no video stream");
        take_dimensions(*picture, out);
    } else if (!sound) {
        throw UnacceptableMedia("the audio file has no audio stream");
    }
    out.duration_seconds = duration_of(report);
    if (!out.duration_seconds) throw UnacceptableMedia("the file has no duration");
    return out;
}

}  // namespace squawk::media
