// The one HTTP client against the programmable receiver on loopback: it keeps at most its limit of
// requests in flight and queues the rest in order, and a request that waits past its timeout
// fails as never sent, so a caller may safely send it again.
#include "common/core/http/http_client.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/core/http/file_transfer.hpp"
#include "common/core/http/multipart.hpp"
#include "tests/support/fake_receiver.hpp"
#include "tests/support/wait.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <future>
#include <thread>
#include <vector>

using namespace squawk;
using namespace squawk::testing;

namespace {

http::Request post_to(const FakeReceiver& receiver, const std::string& path,
                      std::chrono::milliseconds timeout) {
    http::Request r;
    r.method = "POST";
    r.url = receiver.url(path);
    r.body = "{}";
    r.headers = {{"Content-Type", "application/json"}};
    r.timeout = timeout;
    return r;
}

std::vector<std::future<http::Response>> submit_all(http::Client& client,
                                                    const std::vector<http::Request>& requests) {
    std::vector<std::future<http::Response>> answers;
    for (const auto& request : requests) {
        auto promise = std::make_shared<std::promise<http::Response>>();
        answers.push_back(promise->get_future());
        client.submit(request, [promise](http::Response r) { promise->set_value(std::move(r)); });
    }
    return answers;
}

}  // namespace

TEST_CASE("requests beyond the connection limit wait their turn and are all answered",
          "[integration][http]") {
    FakeReceiver receiver;
    receiver.program("/slow", nlohmann::json::array(), {{"status", 200}, {"delay_ms", 300}});
    http::Client client(2);
    std::vector<http::Request> requests(6, post_to(receiver, "/slow", std::chrono::seconds(10)));
    for (auto& answer : submit_all(client, requests)) CHECK(answer.get().status == 200);

    // Two at a time, each answered 300 ms after it arrived: the third arrives only once one of
    // the first two was answered.
    std::vector<long long> arrivals;
    for (const auto& r : receiver.requests("/slow"))
        arrivals.push_back(r["received_at_ms"].get<long long>());
    REQUIRE(arrivals.size() == 6);
    std::sort(arrivals.begin(), arrivals.end());
    CHECK(arrivals[2] - arrivals[0] >= 300);
    CHECK(arrivals[4] - arrivals[2] >= 300);
}

TEST_CASE("a request whose timeout runs out while it waits fails as not sent",
          "[integration][http]") {
    FakeReceiver receiver;
    receiver.program("/busy", nlohmann::json::array(), {{"status", 200}, {"delay_ms", 1500}});
    http::Client client(1);
    auto answers =
        submit_all(client, {post_to(receiver, "/busy", std::chrono::seconds(5)),
                            post_to(receiver, "/queued", std::chrono::milliseconds(200))});
    const auto queued = answers[1].get();
    CHECK(queued.status == 0);
    CHECK(queued.timed_out);
    CHECK_FALSE(queued.request_sent);
    // It failed at its own deadline, while the first request still held the only connection.
    CHECK(answers[0].wait_for(std::chrono::seconds(0)) == std::future_status::timeout);
    CHECK(answers[0].get().status == 200);
    CHECK(receiver.requests("/queued").empty());
}

TEST_CASE("a client run by its owner moves only inside run_once and answers on the owner's thread",
          "[integration][http]") {
    FakeReceiver receiver;
    http::Client client(4, http::Client::Loop::owner_thread);
    std::optional<http::Response> answer;
    std::thread::id answered_on;
    client.submit(post_to(receiver, "/owned", std::chrono::seconds(10)), [&](http::Response r) {
        answer = std::move(r);
        answered_on = std::this_thread::get_id();
    });
    CHECK(holds_throughout([&] { return receiver.requests("/owned").empty(); },
                           std::chrono::milliseconds(200)));

    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!answer && std::chrono::steady_clock::now() < give_up)
        client.run_once(std::chrono::steady_clock::now() + std::chrono::milliseconds(100));
    REQUIRE(answer);
    CHECK(answer->status == 200);
    CHECK(answered_on == std::this_thread::get_id());
    CHECK(receiver.requests("/owned").size() == 1);
}

TEST_CASE("wake() ends a run_once that waits with nothing to do", "[integration][http]") {
    http::Client client(1, http::Client::Loop::owner_thread);
    const auto started = std::chrono::steady_clock::now();
    std::thread waker([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        client.wake();
    });
    // run_once waits at most a second per call whatever `until` says; a wake ends it sooner.
    client.run_once(started + std::chrono::minutes(1));
    waker.join();
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(900));
}

TEST_CASE("a request pinned to a checked address goes there even with a proxy in the environment",
          "[integration][http]") {
    FakeReceiver target;
    FakeReceiver proxy;
    http::Client client;
    http::Request request;
    request.method = "POST";
    request.url = "http://receiver.example:" + std::to_string(target.port()) + "/pinned";
    request.body = "{}";
    // Only around the sends: the fakes' control calls must not go through the proxy.
    const auto send_with_proxy = [&] {
        setenv("http_proxy", proxy.url("").c_str(), 1);
        unsetenv("no_proxy");
        const auto answer = client.send(request);
        unsetenv("http_proxy");
        return answer;
    };

    // Unpinned, the name goes to the proxy to resolve: the environment's proxy is in force.
    CHECK(send_with_proxy().status == 200);
    CHECK(proxy.count() == 1);
    CHECK(target.count() == 0);

    request.connect_to = "127.0.0.1:" + std::to_string(target.port());
    CHECK(send_with_proxy().status == 200);
    CHECK(proxy.count() == 1);
    CHECK(target.requests("/pinned").size() == 1);
}

TEST_CASE("a POST cut off on a reused connection is not sent again but a GET is",
          "[integration][http]") {
    FakeReceiver receiver;
    receiver.program("/publish", nlohmann::json::array({{{"status", 200}}, {{"reset", true}}}));
    receiver.program("/read", nlohmann::json::array({{{"reset", true}}}));
    http::Client client(1);
    REQUIRE(client.send(post_to(receiver, "/publish", std::chrono::seconds(5))).status == 200);

    // The server may have acted on the request before closing: the caller learns the outcome is
    // unknown, and the server saw it once.
    const auto cut = client.send(post_to(receiver, "/publish", std::chrono::seconds(5)));
    CHECK(cut.status == 0);
    CHECK(cut.request_sent);
    CHECK(receiver.requests("/publish").size() == 2);

    REQUIRE(client.send(post_to(receiver, "/publish", std::chrono::seconds(5))).status == 200);
    http::Request read;
    read.url = receiver.url("/read");
    CHECK(client.send(read).status == 200);
    CHECK(receiver.requests("/read").size() == 2);
}

TEST_CASE("a multipart form whose file part streams from disk arrives as one whole body",
          "[integration][http]") {
    FakeReceiver receiver;
    fs::ScratchDirectory folder("squawk-http-form-");
    const auto path = folder / "clip.mp4";
    // Larger than curl's upload buffer, so the file goes in several reads between head and tail.
    std::string content;
    for (int i = 0; content.size() < 300'000; ++i) content += "line " + std::to_string(i) + "\n";
    std::ofstream(path, std::ios::binary) << content;

    http::Multipart form;
    form.field("key", "uploads/1");
    const auto content_type = form.content_type();
    const auto boundary = form.boundary();
    auto around = std::move(form).finish_around_file("file", "clip.mp4", "video/mp4");
    http::Request request;
    request.method = "POST";
    request.url = receiver.url("/upload");
    request.headers = {{"Content-Type", content_type}};
    http::FileBodies files;
    files.upload_from = path;
    files.upload_head = around.head;
    files.upload_tail = around.tail;
    REQUIRE(http::send_with_files(request, files).status == 200);

    const auto received = receiver.requests("/upload");
    REQUIRE(received.size() == 1);
    CHECK(received[0]["method"] == "POST");
    CHECK(received[0]["headers"]["content-type"] == content_type);
    CHECK(received[0]["body"] ==
          "--" + boundary +
              "\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\nuploads/1\r\n--" + boundary +
              "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"clip.mp4\"\r\n"
              "Content-Type: video/mp4\r\n\r\n" +
              content + "\r\n--" + boundary + "--\r\n");
}
