// A connection's bytes read into whole requests: each is delivered once, in order, whatever the
// reads look like, while an upload's body is taken out for its receiver and the request delivered
// with an empty body and the receiver's fields in its place. Only what cannot be framed with
// certainty goes on to Pistache's parser.
#include "api/server/request_stream.hpp"
#include "api/server/chunked_body.hpp"

#include <catch2/catch.hpp>

#include <limits>

using namespace squawk::api;

namespace {

// How a receiver behaves, and what it saw.
struct Recorder {
    bool refuse_at_head = false;
    size_t refuse_after = std::string::npos;  // payload bytes taken before refusing
    std::string payload;
    std::optional<bool> settled_complete;
};

class RecordingReceiver : public BodyReceiver {
  public:
    explicit RecordingReceiver(Recorder& r) : r_(r) {}
    bool refused_at_head() const override { return r_.refuse_at_head; }
    bool take(std::string_view bytes) override {
        r_.payload.append(bytes);
        return r_.payload.size() < r_.refuse_after;
    }
    std::vector<std::pair<std::string, std::string>> settle(bool body_complete) override {
        r_.settled_complete = body_complete;
        return {{std::string(kUploadTicketField), "t1"}};
    }

  private:
    Recorder& r_;
};

// Runs `input` through a stream in reads of `piece` bytes; uploads go to POST /upload. Each
// delivered request is written out again, a body over the limit as its size in brackets.
struct Run {
    std::string delivered;
    std::string forwarded;
    int continues = 0;
    Recorder behaviour;
    std::optional<Recorder> recorder;  // of the last upload

    Run(std::string_view input, size_t piece, Recorder how = {},
        long long max_body_bytes = std::numeric_limits<long long>::max())
        : behaviour(how) {
        RequestStream stream(
            {
                .deliver =
                    [this](const RequestHead& head, RequestBody body) {
                        delivered += render_request_head(head, {}, {});
                        if (static_cast<long long>(body.bytes.size()) == body.size)
                            delivered += body.bytes;
                        else
                            delivered += "[" + std::to_string(body.size) + "]";
                    },
                .forward = [this](std::string_view bytes) { forwarded.append(bytes); },
                .receiver = [this](const RequestHead& head) -> std::unique_ptr<BodyReceiver> {
                    if (head.path() != "/upload") return nullptr;
                    recorder = behaviour;
                    return std::make_unique<RecordingReceiver>(*recorder);
                },
                .send_continue = [this] { ++continues; },
            },
            max_body_bytes);
        for (size_t at = 0; at < input.size(); at += piece) stream.feed(input.substr(at, piece));
    }
};

const std::string kGet = "GET /v1/me HTTP/1.1\r\nHost: a\r\n\r\n";
const std::string kPost = "POST /v1/jobs HTTP/1.1\r\nContent-Length: 7\r\n\r\n{\"a\":1}";
const std::string kChunkedPost =
    "POST /v1/jobs HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\n{\"a\r\n4\r\n\":1}\r\n"
    "0\r\nTrailer: z\r\n\r\n";

}  // namespace

TEST_CASE("requests that are not uploads are delivered whole and in order, however they are read") {
    const std::string input = kGet + kPost + kChunkedPost + kGet;
    const std::string chunked_as_delivered =
        "POST /v1/jobs HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n{\"a\":1}";
    for (const size_t piece : {size_t(1), size_t(3), size_t(17), input.size()}) {
        INFO("reads of " << piece << " bytes");
        const Run run(input, piece);
        CHECK(run.delivered == kGet + kPost + chunked_as_delivered + kGet);
        CHECK(run.forwarded.empty());
    }
}

TEST_CASE("a body over the limit is read past and delivered by its size alone") {
    const std::string chunked_over =
        "POST /v1/jobs HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n{\"a\":1}\r\n0\r\n\r\n";
    for (const size_t piece : {size_t(1), size_t(5), size_t(1000)}) {
        INFO("reads of " << piece << " bytes");
        CHECK(Run(kPost + chunked_over + kGet, piece, {}, 5).delivered ==
              "POST /v1/jobs HTTP/1.1\r\nContent-Length: 7\r\n\r\n[7]"
              "POST /v1/jobs HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n[7]" +
                  kGet);
    }
}

TEST_CASE("a chunked body whose framing fails goes to Pistache as it was sent") {
    const std::string broken =
        "POST /v1/jobs HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXX";
    const Run run(kGet + broken + kGet, 4);
    CHECK(run.delivered == kGet);
    CHECK(run.forwarded == broken + kGet);
}

TEST_CASE("a chunked body over the limit is not held, even to hand to Pistache") {
    const std::string head = "POST /v1/jobs HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
    const std::string over = "8\r\n01234567\r\n";
    const std::string fault = "3\r\nabcXX";
    // The head, the over-long chunk and the fault arrive in three reads.
    std::string forwarded;
    RequestStream stream(
        {
            .deliver = [](const RequestHead&, RequestBody) { FAIL("nothing is whole"); },
            .forward = [&](std::string_view bytes) { forwarded.append(bytes); },
            .receiver = [](const RequestHead&) { return std::unique_ptr<BodyReceiver>(); },
            .send_continue = [] {},
        },
        5);
    stream.feed(head);
    stream.feed(over);
    stream.feed(fault);
    CHECK(forwarded == head + fault);
}

TEST_CASE("a client cannot name an upload itself: its ticket field is removed") {
    const std::string forged = "GET /v1/me HTTP/1.1\r\nX-Squawk-Upload: guess\r\nHost: a\r\n\r\n";
    CHECK(Run(forged + kGet, 5).delivered == "GET /v1/me HTTP/1.1\r\nHost: a\r\n\r\n" + kGet);
}

TEST_CASE("an upload's body goes to its receiver and the request follows with an empty body") {
    const std::string upload =
        "POST /upload HTTP/1.1\r\nContent-Length: 11\r\nX-Squawk-Upload: forged\r\n\r\nhello world";
    for (const size_t piece : {size_t(1), size_t(4), size_t(1000)}) {
        Run run(upload + kGet, piece);
        REQUIRE(run.recorder);
        CHECK(run.recorder->payload == "hello world");
        CHECK(run.recorder->settled_complete == true);
        CHECK(run.delivered ==
              "POST /upload HTTP/1.1\r\nX-Squawk-Upload: t1\r\nContent-Length: 0\r\n\r\n" + kGet);
    }
}

TEST_CASE("a chunked upload reaches its receiver decoded") {
    const std::string upload =
        "POST /upload HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n"
        "0\r\n\r\n";
    Run run(upload + kGet, 3);
    REQUIRE(run.recorder);
    CHECK(run.recorder->payload == "hello world");
    CHECK(run.delivered.ends_with("Content-Length: 0\r\n\r\n" + kGet));
}

TEST_CASE("an upload refused at its head is answered before its body, which is discarded") {
    const std::string head =
        "POST /upload HTTP/1.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n";
    Recorder refusing;
    refusing.refuse_at_head = true;
    Run only_head(head, 1000, refusing);
    CHECK(only_head.delivered ==
          "POST /upload HTTP/1.1\r\nX-Squawk-Upload: t1\r\nContent-Length: 0\r\n\r\n");
    CHECK(only_head.continues == 0);
    Run with_body(head + "hello" + kGet, 2, refusing);
    CHECK(with_body.recorder->payload.empty());
    CHECK(with_body.delivered.ends_with("\r\n\r\n" + kGet));
}

TEST_CASE("a client that waits for 100 Continue is told to send an accepted upload") {
    const std::string head =
        "POST /upload HTTP/1.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n";
    Run run(head, 1000);
    CHECK(run.continues == 1);
    CHECK(run.delivered.empty());  // the request waits for its body
}

TEST_CASE("an upload refused midway is answered at once and the rest of its body discarded") {
    Recorder refusing;
    refusing.refuse_after = 4;
    Run run("POST /upload HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789" + kGet, 2, refusing);
    // It saw no more than the read that made it refuse.
    CHECK(run.recorder->payload.starts_with("0123"));
    CHECK(run.recorder->payload.size() <= 5);
    CHECK(run.recorder->settled_complete == false);
    CHECK(run.delivered ==
          "POST /upload HTTP/1.1\r\nX-Squawk-Upload: t1\r\nContent-Length: 0\r\n\r\n" + kGet);
}

TEST_CASE("what cannot be framed with certainty is left to Pistache from there on") {
    for (const std::string& odd : {
             std::string("POST /upload HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n"),
             std::string("POST /upload HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n"),
             std::string("POST /upload HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: "
                         "chunked\r\n\r\n"),
             std::string("NOT A REQUEST\r\n\r\n"),
         }) {
        INFO(odd);
        const std::string input = odd + "hello" + kGet;
        Run run(input, 4);
        CHECK(run.forwarded == input);
        CHECK(run.delivered.empty());
        CHECK_FALSE(run.recorder);
    }
}

TEST_CASE("a chunked body is read to its end: extensions and trailers skipped, faults found") {
    std::string payload;
    ChunkedBody body;
    const std::string wire = "4;a=b\r\nWiki\r\n5\r\npedia\r\n0\r\nExpires: never\r\n\r\nNEXT";
    const size_t used = body.feed(wire, [&](std::string_view p) { payload.append(p); });
    CHECK(body.done());
    CHECK(payload == "Wikipedia");
    CHECK(wire.substr(used) == "NEXT");

    for (const std::string bad :
         {"x\r\n", "4\r\nWikiXX", "4\nWiki", "1111111111111111\r\n", "0\r\nbad\n"}) {
        INFO(bad);
        ChunkedBody b;
        b.feed(bad, [](std::string_view) {});
        CHECK(b.failed());
    }
}
