// One connection's bytes on their way to Pistache, read one request at a time: most requests pass
// through untouched, but the body of an upload is taken out of the stream and handed to a
// receiver that writes it to disk as it arrives; Pistache then sees that request with an empty
// body and a field naming where its upload went. So no upload is ever whole in memory.
#pragma once

#include "api/server/chunked_body.hpp"
#include "api/server/request_head.hpp"

#include <functional>
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

class RequestStream {
  public:
    struct Hooks {
        // Bytes for Pistache's parser, in order.
        std::function<void(std::string_view)> forward;
        // The receiver of the body of the request with this head, or null to pass it through.
        std::function<std::unique_ptr<BodyReceiver>(const RequestHead&)> receiver;
        // Writes "100 Continue" to a client that asked to be told before sending a body.
        std::function<void()> send_continue;
    };

    explicit RequestStream(Hooks hooks) : hooks_(std::move(hooks)) {}

    void feed(std::string_view bytes);
    // Whether an upload's body is arriving: its reader may then take the connection's bytes in
    // larger pieces than Pistache's 4 KiB reads.
    bool taking_body() const {
        return state_ == State::take_length || state_ == State::take_chunked;
    }

  private:
    enum class State { head, pass_length, pass_chunked, take_length, take_chunked, raw };

    // Reads a head from `bytes` (after what is buffered); what follows it.
    std::string_view read_head(std::string_view bytes);
    void start_request(std::string_view block, std::string_view raw_head);
    void start_upload(const RequestHead& head, const BodyFraming& framing);
    // The upload's receiver has its answer: Pistache gets the head standing for it.
    void settle_upload(bool body_complete);
    std::string_view pass_body(std::string_view bytes);
    std::string_view take_body(std::string_view bytes);
    void to_raw(std::string_view bytes);

    Hooks hooks_;
    State state_ = State::head;
    std::string head_buffer_;
    long long remaining_ = 0;  // body bytes left (pass_length, take_length)
    ChunkedBody chunked_;
    std::unique_ptr<BodyReceiver> receiver_;
    std::string upload_head_;  // the upload's head bytes, until it is settled
    bool upload_settled_ = false;
};

}  // namespace squawk::api
