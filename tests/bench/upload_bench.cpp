// A 200 MB direct upload (POST /v1/media/upload-direct, multipart) timed with curl, interleaved
// with nginx receiving the same body by WebDAV PUT into a file (client_body_buffer_size left at
// its default, so nginx too writes the body to disk as it arrives). Beside the rates, the API's
// peak resident memory before and after: streaming keeps its growth under the upload budget.
#include "common/domain/media/media_settings.hpp"
#include "tests/bench/support/bench.hpp"
#include "tests/support/process.hpp"
#include "tests/support/stack.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>

using namespace squawk;
using namespace squawk::testing;

namespace {

constexpr const char* kBoundary = "squawk-bench-boundary";
constexpr uint32_t kWavDataBytes = 200u * 1000 * 1000;

// A multipart form whose `file` part is a WAV of noise with `data_bytes` of samples: a valid
// audio file the API accepts, written to `path` without holding it in memory.
void write_form(const std::string& path, uint32_t data_bytes) {
    std::ofstream out(path, std::ios::binary);
    const auto le32 = [](uint32_t v) {
        return std::string{char(v & 0xFF), char((v >> 8) & 0xFF), char((v >> 16) & 0xFF),
                           char((v >> 24) & 0xFF)};
    };
    out << "--" << kBoundary
        << "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"noise.wav\"\r\n"
           "Content-Type: audio/wav\r\n\r\n";
    out << "RIFF" << le32(36 + data_bytes) << "WAVEfmt " << le32(16)
        << std::string("\x01\x00\x01\x00", 4) << le32(8000) << le32(16000)
        << std::string("\x02\x00\x10\x00", 4) << "data" << le32(data_bytes);
    std::string block(1 << 20, '\0');
    uint32_t x = 2463534242u;
    for (uint32_t written = 0; written < data_bytes;) {
        for (char& c : block) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            c = static_cast<char>(x);
        }
        const uint32_t n = std::min<uint32_t>(block.size(), data_bytes - written);
        out.write(block.data(), n);
        written += n;
    }
    out << "\r\n--" << kBoundary << "--\r\n";
}

struct Timed {
    long status = 0;
    double seconds = 0;
    std::string body;
};

// curl streaming `file` as the request body (it sends Expect: 100-continue, as clients do).
Timed curl_upload(const std::string& method, const std::string& url, const std::string& file,
                  const std::vector<std::string>& headers, const std::string& answer_path) {
    std::vector<std::string> argv = {
        "curl", "-s", "-X",        method, "-T",
        file,   "-o", answer_path, "-w",   "%{http_code} %{time_total}"};
    for (const auto& h : headers) {
        argv.push_back("-H");
        argv.push_back(h);
    }
    argv.push_back(url);
    const auto run = run_command(argv, std::chrono::minutes(5));
    if (run.exit_code != 0) throw std::runtime_error("curl failed: " + run.err);
    Timed t;
    std::istringstream(run.out) >> t.status >> t.seconds;
    std::ifstream in(answer_path);
    t.body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return t;
}

}  // namespace

int main() {
    try {
        Stack stack(api_only());
        const std::string key = bench::unlimited_test_key(stack);
        const std::string form = bench::scratch_dir() + "/upload-form.bin";
        write_form(form, kWavDataBytes);
        const double megabytes = static_cast<double>(std::filesystem::file_size(form)) / 1e6;
        const std::string answer = bench::scratch_dir() + "/upload-answer.json";

        bench::NginxServer nginx(
            "client_max_body_size 300m;\n    location /upload/ { dav_methods PUT; }");
        std::filesystem::create_directories(nginx.html_dir() + "/upload");

        const pid_t api = stack.pid(Process::api);
        const double rss_before = bench::peak_rss_mib(api);
        bench::Series rate{"200 MB direct upload (multipart, curl -T)", "MB/s", true,          {},
                           "nginx WebDAV PUT of the same body",         {},     "ratio >= 0.5"};
        bench::Series rss{"squawk-api peak RSS growth over the runs",
                          "MiB",
                          false,
                          {},
                          "",
                          {},
                          "<= upload budget (64 MiB)"};
        for (int round = 0; round < bench::repeats(); ++round) {
            const auto ours = curl_upload(
                "POST", stack.base_url() + "/v1/media/upload-direct", form,
                {"Authorization: Bearer " + key,
                 std::string("Content-Type: multipart/form-data; boundary=") + kBoundary},
                answer);
            if (ours.status != 201) throw std::runtime_error("upload answered " + ours.body);
            const auto media_id = nlohmann::json::parse(ours.body)["data"]["media_id"];
            stack.request("DELETE", "/v1/media/" + media_id.get<std::string>(), nullptr, key);

            const auto theirs =
                curl_upload("PUT", nginx.base_url() + "/upload/body.bin", form, {}, answer);
            if (theirs.status != 201 && theirs.status != 204)
                throw std::runtime_error("nginx answered " + std::to_string(theirs.status));
            std::filesystem::remove(nginx.html_dir() + "/upload/body.bin");

            rate.squawk.push_back(megabytes / ours.seconds);
            rate.peer.push_back(megabytes / theirs.seconds);
            rss.squawk.push_back(bench::peak_rss_mib(api) - rss_before);
            std::cerr << "upload round " << round + 1 << ": squawk " << megabytes / ours.seconds
                      << " MB/s, nginx " << megabytes / theirs.seconds << " MB/s, API peak RSS +"
                      << rss.squawk.back() << " MiB\n";
        }
        std::filesystem::remove(form);
        bench::Report report;
        report.add(rate);
        report.add(rss);
        report.note("squawk-api peak RSS before the uploads: " + std::to_string(rss_before) +
                    " MiB; the upload memory budget (media.upload_memory_budget_bytes) is " +
                    std::to_string(config::MediaSettings{}.upload_memory_budget_bytes >> 20) +
                    " MiB");
        report.note(
            "the Squawk side includes sniffing the type, ffprobe, the database row and "
            "the rename into the media folder; nginx only stores the body");
        report.write();
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "upload bench failed: " << e.what() << '\n';
        return 1;
    }
}
