// POST /v1/audio/speech: a WAV tone (24 kHz mono 16-bit, as the service sends) lasting
// kSecondsPerCharacter for each character of the input, divided by the speed asked, so tests can
// tell from the length of the recording that their text came through.
#include "tests/fakes/openai/fake_openai.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>

namespace squawk::fakes::openai {
namespace {

constexpr int kSampleRate = 24000;
constexpr double kToneHz = 440.0;
constexpr double kAmplitude = 8000.0;
constexpr size_t kMaxInputChars = 4096;

void put_le(std::string& out, uint32_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

std::string tone_wav(double seconds) {
    const auto samples = static_cast<uint32_t>(std::lround(seconds * kSampleRate));
    std::string wav = "RIFF";
    put_le(wav, 36 + samples * 2, 4);
    wav += "WAVEfmt ";
    put_le(wav, 16, 4);
    put_le(wav, 1, 2);  // PCM
    put_le(wav, 1, 2);  // mono
    put_le(wav, kSampleRate, 4);
    put_le(wav, kSampleRate * 2, 4);
    put_le(wav, 2, 2);
    put_le(wav, 16, 2);
    wav += "data";
    put_le(wav, samples * 2, 4);
    for (uint32_t i = 0; i < samples; ++i) {
        const double t = static_cast<double>(i) / kSampleRate;
        const auto sample = static_cast<int16_t>(kAmplitude * std::sin(2 * M_PI * kToneHz * t));
        put_le(wav, static_cast<uint16_t>(sample), 2);
    }
    return wav;
}

size_t characters(const std::string& text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

}  // namespace

HttpAnswer speech(const HttpRequest& request) {
    static const std::set<std::string> voices{"alloy", "ash",  "ballad", "coral",   "echo", "fable",
                                              "onyx",  "nova", "sage",   "shimmer", "verse"};
    const auto body = nlohmann::json::parse(request.body, nullptr, false);
    if (!body.is_object())
        return error_answer(400, "We could not parse the JSON body of your request.",
                            "invalid_request_error");
    const auto text = [&](const char* name) {
        const auto it = body.find(name);
        return it != body.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    const std::string model = text("model");
    if (model.empty())
        return error_answer(400, "you must provide a model parameter", "invalid_request_error",
                            "model");
    if (!known_model(model)) return unknown_model(model);
    const std::string input = text("input");
    if (input.empty() || characters(input) > kMaxInputChars)
        return error_answer(400, "input must be 1 to 4096 characters", "invalid_request_error",
                            "input");
    if (!voices.contains(text("voice")))
        return error_answer(400, "Invalid value for 'voice'.", "invalid_request_error", "voice");
    if (text("response_format") != "wav")
        return error_answer(400, "This fake answers response_format wav only.",
                            "invalid_request_error", "response_format");
    double speed = 1.0;
    if (const auto it = body.find("speed"); it != body.end()) {
        if (!it->is_number() || it->get<double>() < 0.25 || it->get<double>() > 4.0)
            return error_answer(400, "speed must be between 0.25 and 4.0", "invalid_request_error",
                                "speed");
        speed = it->get<double>();
    }
    HttpAnswer answer;
    answer.content_type = "audio/wav";
    answer.body = tone_wav(speech_seconds(input, speed));
    return answer;
}

double speech_seconds(const std::string& input, double speed) {
    return static_cast<double>(characters(input)) * kSecondsPerCharacter / speed;
}

}  // namespace squawk::fakes::openai
