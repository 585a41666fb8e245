#include "workers/generate/text_to_speech_task.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/log/logger.hpp"
#include "common/domain/media/media_repository.hpp"
#include "workers/errors.hpp"
#include "workers/generate/wav_info.hpp"
#include "workers/runtime/subprocess.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace squawk::workers::generate {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxTextBytes = 100000;
constexpr int kMinSpeed = 80;
constexpr int kMaxSpeed = 450;

// espeak-ng voice names: "en", "en-us", "en+f3", "mb/mb-en1". Anything else never reaches argv.
bool plausible_voice(const std::string& voice) {
    if (voice.empty() || voice.size() > 64 || voice.front() == '-') return false;
    return std::all_of(voice.begin(), voice.end(),
                       [](char c) {
                           return std::isalnum(static_cast<unsigned char>(c)) || c == '-' ||
                                  c == '_' || c == '+' || c == '/' || c == '.';
                       }) &&
           voice.find("..") == std::string::npos;
}

// Removes the temporary file unless it was renamed into place.
class TempFile {
  public:
    explicit TempFile(fs::path path) : path_(std::move(path)) {}
    ~TempFile() {
        std::error_code ignored;
        fs::remove(path_, ignored);
    }
    const fs::path& path() const { return path_; }

  private:
    fs::path path_;
};

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

[[noreturn]] void fail_synthesis(const SubprocessResult& r, const SpeechRequest& request) {
    if (r.stopped) throw TaskCancelled();
    if (r.timed_out) throw RetryableError("espeak-ng did not finish in time");
    if (r.stderr_text.find("voice does not exist") != std::string::npos)
        throw PermanentError("unknown voice '" + request.voice + "'", {{"voice", request.voice}});
    throw RetryableError("espeak-ng exited with status " + std::to_string(r.exit_code) + ": " +
                         r.stderr_text.substr(0, 500));
}

}  // namespace

SpeechRequest parse_speech_request(const nlohmann::json& payload) {
    SpeechRequest request;
    if (!payload.is_object()) throw PermanentError("payload must be an object");
    const auto text = payload.find("text");
    if (text == payload.end() || !text->is_string() || text->get<std::string>().empty())
        throw PermanentError("text must be a non-empty string", {{"field", "text"}});
    request.text = text->get<std::string>();
    if (request.text.size() > kMaxTextBytes)
        throw PermanentError("text is too long", {{"field", "text"}});
    if (const auto voice = payload.find("voice"); voice != payload.end() && !voice->is_null()) {
        if (!voice->is_string() || !plausible_voice(voice->get<std::string>()))
            throw PermanentError("voice is not a valid voice name", {{"field", "voice"}});
        request.voice = voice->get<std::string>();
    }
    if (const auto speed = payload.find("speed"); speed != payload.end() && !speed->is_null()) {
        if (!speed->is_number() || speed->get<double>() < kMinSpeed ||
            speed->get<double>() > kMaxSpeed)
            throw PermanentError("speed must be between 80 and 450 words per minute",
                                 {{"field", "speed"}});
        request.speed = static_cast<int>(speed->get<double>());
    }
    return request;
}

nlohmann::json TextToSpeechTask::run(const jobs::ClaimedJob& job, TaskContext& context) {
    const SpeechRequest request = parse_speech_request(job.payload);
    const auto& settings = context.config();
    const fs::path directory = fs::path(settings.media.dir) / std::to_string(job.workspace_id);
    const std::string file_name = job.public_id + ".wav";
    const fs::path final_path = directory / file_name;
    // Same directory as the final file, so the rename is atomic and a rerun overwrites it.
    TempFile temp(directory / (file_name + ".tmp-" + crypto::hex(crypto::random_bytes(6))));

    const WavInfo wav = context.executor().run([&] {
        std::error_code error;
        fs::create_directories(directory, error);
        if (error)
            throw RetryableError("cannot create " + directory.string() + ": " + error.message());
        SubprocessRequest spawn;
        spawn.argv = {settings.speech.espeak_binary,
                      "--stdin",
                      "-v",
                      request.voice,
                      "-s",
                      std::to_string(request.speed),
                      "-w",
                      temp.path().string()};
        spawn.stdin_data = request.text;
        spawn.timeout = std::chrono::seconds(settings.speech.timeout_seconds);
        spawn.stop = &context.stop_requested();
        SubprocessResult result;
        try {
            result = run_subprocess(spawn);
        } catch (const SubprocessStartError& e) {
            throw RetryableError(e.what());
        }
        if (result.exit_code != 0) fail_synthesis(result, request);
        const auto info = parse_wav(read_file(temp.path()));
        if (!info) throw RetryableError("espeak-ng did not produce a valid WAV file");
        return *info;
    });

    // Last safe point: past here the file and the media record are the job's effects.
    context.stop_if_cancelled();

    const media::Media stored = context.executor().run([&] {
        std::error_code error;
        const auto size = fs::file_size(temp.path(), error);
        if (error) throw RetryableError("cannot stat the synthesized file: " + error.message());
        fs::rename(temp.path(), final_path, error);
        if (error) throw RetryableError("cannot move the synthesized file: " + error.message());
        media::Media m;
        m.workspace_id = job.workspace_id;
        m.kind = "audio";
        m.mime_type = "audio/wav";
        m.size_bytes = static_cast<long long>(size);
        m.storage_path = std::to_string(job.workspace_id) + "/" + file_name;
        m.duration_seconds = wav.duration_seconds;
        m.source_job_id = job.id;
        return context.mysql().run(
            [&](db::Session& s) { return media::MediaRepository::upsert_for_job(s, m); });
    });

    log::debug("speech synthesized", {{"job_id", job.public_id},
                                      {"workspace_id", job.workspace_id},
                                      {"media_id", stored.public_id},
                                      {"duration_seconds", wav.duration_seconds}});
    return {{"media_id", stored.public_id},
            {"duration_seconds", wav.duration_seconds},
            {"mime_type", "audio/wav"},
            {"size_bytes", stored.size_bytes},
            {"download_url",
             settings.api.public_base_url + "/media/" + stored.public_id + "/download"}};
}

}  // namespace squawk::workers::generate
