// A 200 MB video published through the whole publish path to X's fake (chunked: INIT, 4 MiB
// APPENDs, FINALIZE, STATUS) and to YouTube's (resumable: a session, then 8 MiB PUTs): the worker
// downloads it from a media host (nginx) to a file, reads it with ffprobe and uploads it from the
// file. Reported per platform: the upload rate (bytes over the time the platform took from INIT to
// FINALIZE on X, from the session's start to its last chunk on YouTube), the time from the post's
// creation to its publication, and the worker's peak resident memory growth, which streaming keeps
// flat (target: at most 32 MB). Each platform has a worker of its own, so each peak is that
// platform's.
#include "common/core/time/clock.hpp"
#include "tests/bench/support/bench.hpp"
#include "tests/support/fake_platforms.hpp"
#include "tests/support/post_fixtures.hpp"
#include "tests/support/process.hpp"
#include "tests/support/social_fixtures.hpp"
#include "tests/support/stack.hpp"

#include <filesystem>
#include <iostream>
#include <vector>

using namespace squawk;
using namespace squawk::testing;

namespace {

// One platform the video goes to: its account on the fake, and when its upload started and ended
// as the fake received it.
struct Destination {
    std::string platform;
    std::string label;
    std::string user_id;
    std::string account_action;  // control action creating the fake's account
    nlohmann::json account;
    double (*upload_ms)(FakePlatforms& fake);
};

// Milliseconds between the fake's receipt of the first INIT and of the FINALIZE.
double x_upload_ms(FakePlatforms& fake) {
    long long init = 0;
    long long finalize = 0;
    for (const auto& call : fake.calls("/x/2/media/upload")) {
        if (!call.contains("form")) continue;
        const auto command = call["form"]["fields"].value("command", "");
        if (command == "INIT") init = call["received_at_ms"];
        if (command == "FINALIZE") finalize = call["received_at_ms"];
    }
    return static_cast<double>(finalize - init);
}

// Milliseconds between the session's start and the last chunk.
double youtube_upload_ms(FakePlatforms& fake) {
    const auto calls = fake.calls("/youtube/upload/youtube/v3/videos");
    if (calls.empty()) throw std::runtime_error("no upload reached the YouTube fake");
    return static_cast<double>(calls.back()["received_at_ms"].get<long long>() -
                               calls.front()["received_at_ms"].get<long long>());
}

const std::vector<Destination>& destinations() {
    static const std::vector<Destination> all = {
        {"x",
         "X (chunked)",
         "1590000000000004242",
         "user",
         {{"id", "1590000000000004242"}, {"username", "benchclips"}, {"name", "Bench"}},
         &x_upload_ms},
        {"youtube",
         "YouTube (resumable)",
         "108000000000000004242",
         "channel",
         {{"user_id", "108000000000000004242"},
          {"id", "UCbenchclips000000000042"},
          {"title", "Bench"},
          {"custom_url", "@benchclips"}},
         &youtube_upload_ms},
    };
    return all;
}

// A real H.264 MP4 of noise (it does not compress) at about 40 Mbit/s: 40 s is ~200 MB.
void write_video_of(const std::string& path, int seconds) {
    const std::string source =
        "nullsrc=s=640x360:r=25:d=" + std::to_string(seconds) + ",geq=random(1)*255:128:128";
    const auto run = run_command(
        {"ffmpeg", "-nostdin", "-v",      "error",     "-y",         "-f",   "lavfi", "-i",
         source,   "-c:v",     "libx264", "-preset",   "ultrafast",  "-b:v", "40M",   "-maxrate",
         "40M",    "-bufsize", "80M",     "-movflags", "+faststart", path},
        std::chrono::minutes(10));
    if (run.exit_code != 0) throw std::runtime_error("ffmpeg failed: " + run.err);
}

// Connects the destination's fake account (again) and publishes a post of `video_url`; throws
// unless it is published.
void publish_video(Stack& stack, FakePlatforms& fake, const std::string& key, const Destination& to,
                   const std::string& video_url) {
    fake.control_platform(to.platform, "next_consent", {{"user_id", to.user_id}});
    const auto connected = connect_through_oauth(stack, key, to.platform);
    if (connected.status / 100 != 2) throw std::runtime_error("connect failed: " + connected.body);
    fake.clear_calls();
    // Each round posts the same text: the duplicate guard is told so.
    const auto created = stack.request("POST", "/v1/social/posts",
                                       {{"content", "A long clip"},
                                        {"allow_duplicates", true},
                                        {"account_ids", {connected.json["data"]["id"]}},
                                        {"media_urls", {video_url}}},
                                       key);
    if (created.status != 201) throw std::runtime_error("post failed: " + created.body);
    const auto done =
        wait_settled(stack, created.json["data"]["id"].get<long long>(), std::chrono::minutes(5));
    if (done.status != social::PostStatus::published)
        throw std::runtime_error("the video was not published: " + done.targets[0].error.dump());
}

}  // namespace

int main() {
    try {
        bench::NginxServer media("types { video/mp4 mp4; }");
        const std::string file = media.html_dir() + "/clip.mp4";
        write_video_of(file, 40);
        write_video_of(media.html_dir() + "/warmup.mp4", 2);
        const double megabytes = static_cast<double>(std::filesystem::file_size(file)) / 1e6;
        bench::Report report;
        std::string baselines;
        for (const auto& to : destinations()) {
            FakePlatforms fake;
            StackOptions options;
            options.worker_arguments = {"--pools", "publish"};
            options.extra_config = fake.config();
            Stack stack(options);
            fake.control_platform(to.platform, to.account_action, to.account);
            const std::string key = stack.tenant().live_key;

            bench::Series rate;
            rate.name = "200 MB video to " + to.label + ", upload rate";
            rate.unit = "MB/s";
            bench::Series publish;
            publish.name = "200 MB video to " + to.label + ", created to published";
            publish.unit = "s";
            publish.higher_is_better = false;
            bench::Series rss;
            rss.name = "squawk-worker peak RSS growth, 200 MB video to " + to.label;
            rss.unit = "MiB";
            rss.higher_is_better = false;
            rss.target = "<= 32";
            // One post with a short video first: the worker's pools, connections and fiber
            // stacks are then in use, so the growth measured after it is the large file's.
            publish_video(stack, fake, key, to, media.base_url() + "/warmup.mp4");
            const double rss_before = bench::peak_rss_mib(stack.pid(Process::worker));
            for (int round = 0; round < bench::repeats(); ++round) {
                const auto started = time::now();
                publish_video(stack, fake, key, to, media.base_url() + "/clip.mp4");
                publish.squawk.push_back(
                    std::chrono::duration<double>(time::now() - started).count());
                rate.squawk.push_back(megabytes / (to.upload_ms(fake) / 1000.0));
                rss.squawk.push_back(bench::peak_rss_mib(stack.pid(Process::worker)) - rss_before);
                std::cout << to.label << " round " << round << ": " << rate.squawk.back()
                          << " MB/s upload, " << publish.squawk.back()
                          << " s to published, worker peak RSS +" << rss.squawk.back() << " MiB\n";
            }
            report.add(rate);
            report.add(publish);
            report.add(rss);
            baselines += (baselines.empty() ? "" : ", ") + to.label + " " +
                         std::to_string(rss_before) + " MiB";
        }
        report.note("video: " + std::to_string(megabytes) +
                    " MB H.264 MP4 from nginx on loopback; squawk-worker peak RSS before (after "
                    "a 2 s warm-up video): " +
                    baselines);
        report.write();
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "video_publish bench failed: " << e.what() << "\n";
        return 1;
    }
}
