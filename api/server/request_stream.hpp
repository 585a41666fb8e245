// One connection's bytes read one request at a time, each handed on whole: its head parsed where
// it lies and its body read to its end. The body of an upload is taken out of the stream and
// handed to a receiver that writes it to disk as it arrives; the request then follows with an
// empty body and a field naming where its upload went, so no upload is ever whole in memory.
// What cannot be framed with certainty is left to Pistache's parser from there on.
#pragma once

#include "api/server/chunked_body.hpp"
#include "api/server/request_head.hpp"

#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace squawk::api {

// The field naming a received upload (UploadRegistry). Removed from every request a client sends,
// so only the front can name one.
inline constexpr std::string_view kUploadTicketField = "X-Squawk-Upload";

// Takes one request's body.
class BodyReceiver {
  public:
    virtual ~BodyReceiver() = default;
    // Whether it refused the request from its head alone (too large, no room): the request is
    // then answered at once and its body discarded.
    virtual bool refused_at_head() const = 0;
    // The next bytes of payload; false once it has refused the body and wants no more of it.
    virtual bool take(std::string_view payload) = 0;
    // The body ended, or was refused: the fields that stand for it in the forwarded head.
    virtual std::vector<std::pair<std::string, std::string>> settle(bool body_complete) = 0;
};

// A request's body as read: its bytes, or its size alone when it is over the stream's limit.
struct RequestBody {
    std::string_view bytes;
    long long size = 0;
};

class RequestStream {
  public:
    struct Hooks {
        // A whole request, in order. Views valid for the call only.
        std::function<void(const RequestHead&, RequestBody)> deliver;
        // Bytes for Pistache's parser, once the stream has met what it cannot frame.
        std::function<void(std::string_view)> forward;
        // The receiver of the body of the request with this head, or null to pass it through.
        std::function<std::unique_ptr<BodyReceiver>(const RequestHead&)> receiver;
        // Writes "100 Continue" to a client that asked to be told before sending a body.
        std::function<void()> send_continue;
    };

    // Bodies over `max_body_bytes` are read past and delivered by their size alone.
    explicit RequestStream(Hooks hooks,
                           long long max_body_bytes = std::numeric_limits<long long>::max())
        : hooks_(std::move(hooks)), max_body_bytes_(max_body_bytes) {}

    void feed(std::string_view bytes);
    // Whether an upload's body is arriving: its reader may then take the connection's bytes in
    // larger pieces than Pistache's 4 KiB reads.
    bool taking_body() const {
        return state_ == State::take_length || state_ == State::take_chunked;
    }
    // Whether nothing of a next request has arrived since the last one was delivered.
    bool between_requests() const { return state_ == State::head && head_buffer_.empty(); }
    // Whether every byte now goes to Pistache's parser, which then keeps the connection's clock.
    bool forwarding() const { return state_ == State::raw; }

  private:
    enum class State { head, read_length, read_chunked, take_length, take_chunked, raw };

    // Reads a head from `bytes` (after what is buffered); what follows it.
    std::string_view read_head(std::string_view bytes);
    void start_request(std::string_view block, std::string_view raw_head);
    void start_upload(const RequestHead& head, const BodyFraming& framing);
    // The upload's receiver has its answer: Pistache gets the head standing for it.
    void settle_upload(bool body_complete);
    std::string_view read_body(std::string_view bytes);
    void keep_body(std::string_view payload);
    // The request whose head is pending_head_ has its body.
    void deliver_read();
    // Delivers a head a client sent, without any ticket field it forged.
    void deliver_sent(const RequestHead& head, RequestBody body);
    std::string_view take_body(std::string_view bytes);
    void to_raw(std::string_view bytes);

    Hooks hooks_;
    long long max_body_bytes_;
    State state_ = State::head;
    std::string head_buffer_;
    long long remaining_ = 0;   // body bytes left (read_length, take_length)
    std::string pending_head_;  // the head of the body being read
    std::string body_;
    long long body_size_ = 0;
    // A chunked body within the limit as sent, for Pistache should its framing fail.
    std::string chunked_bytes_;
    ChunkedBody chunked_;
    std::unique_ptr<BodyReceiver> receiver_;
    std::string upload_head_;  // the upload's head bytes, until it is settled
    bool upload_settled_ = false;
};

}  // namespace squawk::api
