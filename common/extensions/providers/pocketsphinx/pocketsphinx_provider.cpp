#include "common/extensions/providers/pocketsphinx/pocketsphinx_provider.hpp"

#include "common/core/fs/work_files.hpp"
#include "common/core/process/subprocess.hpp"
#include "common/domain/generation/provider_error.hpp"
#include "common/domain/generation/wav_info.hpp"
#include "common/extensions/providers/pocketsphinx/pocketsphinx_output.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <system_error>

namespace squawk::providers::pocketsphinx {
namespace {

namespace fs = std::filesystem;
using generation::ProviderError;
using Clock = std::chrono::steady_clock;

// The WAV header is read through a mapping, so an hour of audio is never copied into memory just
// to learn its length.
std::optional<generation::WavInfo> wav_info_of(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    struct stat status {};
    std::optional<generation::WavInfo> info;
    if (::fstat(fd, &status) == 0 && status.st_size > 0) {
        const auto size = static_cast<size_t>(status.st_size);
        void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (mapped != MAP_FAILED) {
            info = generation::parse_wav(std::string_view(static_cast<const char*>(mapped), size));
            ::munmap(mapped, size);
        }
    }
    ::close(fd);
    return info;
}

std::chrono::milliseconds time_left(Clock::time_point deadline) {
    return std::max(std::chrono::milliseconds(1),
                    std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
}

process::SubprocessResult run(process::SubprocessRequest request, const std::string& program) {
    try {
        return process::run_subprocess(request);
    } catch (const process::SubprocessStartError& e) {
        throw ProviderError::retryable(program + " could not be started: " + e.what());
    }
}

void throw_if_interrupted(const process::SubprocessResult& result, const std::string& program) {
    if (result.stopped) throw generation::ProviderStopped();
    if (result.timed_out) throw ProviderError::retryable(program + " did not finish in time");
    if (result.exit_code < 0) throw ProviderError::retryable(program + " was killed by a signal");
}

std::string last_line_of(const std::string& text, std::string_view containing = "") {
    std::istringstream lines(text);
    std::string line, last;
    while (std::getline(lines, line))
        if (!line.empty() && line.find(containing) != std::string::npos) last = line;
    return last.substr(0, 300);
}

// The first audio stream, whatever the container and codec, as 16 kHz mono 16-bit PCM: what the
// en-us acoustic model was trained on. Bit-exact output keeps the header to the plain 44 bytes
// pocketsphinx_continuous skips.
void decode_audio(const config::PocketsphinxSettings& settings, const fs::path& input,
                  const fs::path& wav, Clock::time_point deadline, const std::atomic<bool>& stop) {
    process::SubprocessRequest request;
    // "file:" keeps ffmpeg from reading any part of a path as a protocol or an option.
    request.argv = {settings.ffmpeg,
                    "-nostdin",
                    "-hide_banner",
                    "-loglevel",
                    "error",
                    "-i",
                    "file:" + input.string(),
                    "-map",
                    "0:a:0",
                    "-vn",
                    "-sn",
                    "-dn",
                    "-ac",
                    "1",
                    "-ar",
                    "16000",
                    "-c:a",
                    "pcm_s16le",
                    "-map_metadata",
                    "-1",
                    "-fflags",
                    "+bitexact",
                    "-flags:a",
                    "+bitexact",
                    "-f",
                    "wav",
                    "-y",
                    "file:" + wav.string()};
    request.timeout = time_left(deadline);
    request.stop = &stop;
    const auto result = run(std::move(request), "ffmpeg");
    throw_if_interrupted(result, "ffmpeg");
    if (result.exit_code == 0) return;
    // A full scratch disk is ours to fix; any other complaint is about the input.
    if (result.stderr_text.find("No space left on device") != std::string::npos)
        throw ProviderError::retryable("ffmpeg could not write the audio: no space left on device");
    throw ProviderError::permanent("the file has no audio that can be decoded",
                                   {{"field", "media_id"}});
}

std::vector<generation::TranscribedWord> recognise(const config::PocketsphinxSettings& settings,
                                                   const squawk::fs::ScratchDirectory& scratch,
                                                   const fs::path& wav, Clock::time_point deadline,
                                                   const std::atomic<bool>& stop) {
    const fs::path model(settings.model_dir);
    const auto words = scratch / "words.txt";
    const auto log = scratch / "pocketsphinx.log";
    process::SubprocessRequest request;
    request.argv = {settings.binary,
                    "-infile",
                    wav.string(),
                    "-hmm",
                    (model / "en-us").string(),
                    "-lm",
                    (model / "en-us.lm.bin").string(),
                    "-dict",
                    (model / "cmudict-en-us.dict").string(),
                    "-time",
                    "yes",
                    "-logfn",
                    log.string()};
    request.stdout_path = words.string();
    request.timeout = time_left(deadline);
    request.stop = &stop;
    const auto result = run(std::move(request), settings.binary);
    throw_if_interrupted(result, settings.binary);
    if (result.exit_code != 0) {
        // Its log is long; the reason is its last ERROR line (a missing model, a bad WAV).
        std::string reason = last_line_of(squawk::fs::read_file(log).value_or(""), "ERROR");
        if (reason.empty()) reason = last_line_of(result.stderr_text);
        throw ProviderError::retryable(settings.binary + " exited with status " +
                                       std::to_string(result.exit_code) +
                                       (reason.empty() ? "" : ": " + reason));
    }
    return parse_pocketsphinx_output(squawk::fs::read_file(words).value_or(""));
}

generation::Transcript transcribe_file(const config::PocketsphinxSettings& settings,
                                       const fs::path& input, const std::atomic<bool>& stop) {
    const auto deadline = Clock::now() + std::chrono::seconds(settings.timeout_seconds);
    // The WAV, the recogniser's output and its log, removed however the transcription ends.
    const auto scratch = [] {
        try {
            return std::make_unique<squawk::fs::ScratchDirectory>("squawk-pocketsphinx-");
        } catch (const std::system_error& e) {
            throw ProviderError::retryable(e.what());
        }
    }();
    const auto wav = *scratch / "audio.wav";
    decode_audio(settings, input, wav, deadline, stop);
    const auto info = wav_info_of(wav);
    if (!info) throw ProviderError::retryable("ffmpeg did not produce a valid WAV file");
    if (info->data_bytes == 0)
        throw ProviderError::permanent("the file has no audio that can be decoded",
                                       {{"field", "media_id"}});

    generation::Transcript transcript;
    transcript.language = "en";
    transcript.model = std::string(kModel);
    transcript.duration_seconds = info->duration_seconds;
    transcript.words = recognise(settings, *scratch, wav, deadline, stop);
    for (auto& word : transcript.words) {
        // The last frame's window may reach past the final sample.
        word.start_seconds = std::min(word.start_seconds, transcript.duration_seconds);
        word.end_seconds = std::min(word.end_seconds, transcript.duration_seconds);
        if (!transcript.text.empty()) transcript.text += ' ';
        transcript.text += word.word;
    }
    return transcript;
}

}  // namespace

std::vector<std::string> PocketsphinxProvider::languages() const {
    return {"en"};
}

generation::Transcript PocketsphinxProvider::transcribe(
    const std::filesystem::path& input, const generation::TranscriptionRequest& request,
    generation::ProviderCalls& calls) const {
    if (request.language != "en")
        throw ProviderError::permanent("pocketsphinx transcribes English only",
                                       {{"field", "language"}});
    if (!request.model.empty() && request.model != kModel)
        throw ProviderError::permanent("unknown model '" + request.model + "'",
                                       {{"field", "model"}});
    generation::Transcript transcript;
    calls.blocking([&] { transcript = transcribe_file(settings_, input, calls.stop()); });
    return transcript;
}

}  // namespace squawk::providers::pocketsphinx
