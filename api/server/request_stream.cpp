#include "api/server/request_stream.hpp"

#include "common/core/text/ascii.hpp"

#include <algorithm>

namespace squawk::api {
namespace {

constexpr std::string_view kHeadEnd = "\r\n\r\n";

bool asks_to_continue(const RequestHead& head) {
    const auto expect = head.field("Expect");
    return expect && text::equals_ignoring_case(*expect, "100-continue");
}

}  // namespace

void RequestStream::feed(std::string_view bytes) {
    while (!bytes.empty()) {
        switch (state_) {
            case State::head:
                bytes = read_head(bytes);
                break;
            case State::read_length:
            case State::read_chunked:
                bytes = read_body(bytes);
                break;
            case State::take_length:
            case State::take_chunked:
                bytes = take_body(bytes);
                break;
            case State::raw:
                hooks_.forward(bytes);
                return;
        }
    }
}

std::string_view RequestStream::read_head(std::string_view bytes) {
    if (head_buffer_.empty()) {
        // The usual case: the whole head arrived in one read and is parsed where it lies.
        const size_t end = bytes.find(kHeadEnd);
        if (end != std::string_view::npos && end + kHeadEnd.size() > kMaxRequestHeadBytes) {
            to_raw(bytes);
            return {};
        }
        if (end != std::string_view::npos) {
            const std::string_view raw = bytes.substr(0, end + kHeadEnd.size());
            start_request(bytes.substr(0, end), raw);
            return bytes.substr(raw.size());
        }
    }
    const size_t searched = head_buffer_.size() < 3 ? 0 : head_buffer_.size() - 3;
    head_buffer_.append(bytes);
    const size_t end = head_buffer_.find(kHeadEnd, searched);
    if (end == std::string::npos ? head_buffer_.size() > kMaxRequestHeadBytes
                                 : end + kHeadEnd.size() > kMaxRequestHeadBytes) {
        to_raw({});
        return {};
    }
    if (end == std::string::npos) return {};
    const std::string buffered = std::move(head_buffer_);
    head_buffer_.clear();
    const size_t head_size = end + kHeadEnd.size();
    const size_t used_of_bytes = head_size - (buffered.size() - bytes.size());
    start_request(std::string_view(buffered).substr(0, end),
                  std::string_view(buffered).substr(0, head_size));
    return bytes.substr(used_of_bytes);
}

void RequestStream::start_request(std::string_view block, std::string_view raw_head) {
    const auto head = parse_request_head(block);
    const BodyFraming framing = head ? body_framing(*head) : BodyFraming{};
    if (!head || framing.kind == BodyFraming::Kind::unknown) {
        // What cannot be framed with certainty is left wholly to Pistache, which refuses it;
        // no later request of this connection is looked at.
        to_raw(raw_head);
        return;
    }
    if (auto receiver = hooks_.receiver(*head)) {
        receiver_ = std::move(receiver);
        start_upload(*head, framing);
        return;
    }
    if (framing.kind == BodyFraming::Kind::none ||
        (framing.kind == BodyFraming::Kind::length && framing.length == 0)) {
        deliver_sent(*head, {});
        return;
    }
    // The head's views may point into a read the next one replaces: it waits as a copy.
    pending_head_.assign(raw_head);
    body_.clear();
    body_size_ = 0;
    if (framing.kind == BodyFraming::Kind::length) {
        state_ = State::read_length;
        remaining_ = framing.length;
    } else {
        state_ = State::read_chunked;
        chunked_ = ChunkedBody();
        chunked_bytes_.clear();
    }
}

void RequestStream::deliver_sent(const RequestHead& head, RequestBody body) {
    if (!head.has_field(kUploadTicketField)) {
        hooks_.deliver(head, body);
        return;
    }
    RequestHead sent = head;
    std::erase_if(sent.fields, [](const auto& field) {
        return text::equals_ignoring_case(field.first, kUploadTicketField);
    });
    hooks_.deliver(sent, body);
}

void RequestStream::start_upload(const RequestHead& head, const BodyFraming& framing) {
    upload_head_ = render_request_head(
        head, {kUploadTicketField, "Content-Length", "Transfer-Encoding", "Expect"}, {});
    upload_settled_ = false;
    if (framing.kind == BodyFraming::Kind::none) {
        settle_upload(true);
        state_ = State::head;
        return;
    }
    if (receiver_->refused_at_head())
        settle_upload(false);
    else if (asks_to_continue(head))
        hooks_.send_continue();
    if (framing.kind == BodyFraming::Kind::length) {
        state_ = State::take_length;
        remaining_ = framing.length;
    } else {
        state_ = State::take_chunked;
        chunked_ = ChunkedBody();
    }
}

void RequestStream::settle_upload(bool body_complete) {
    if (upload_settled_) return;
    upload_settled_ = true;
    auto fields = receiver_->settle(body_complete);
    fields.emplace_back("Content-Length", "0");
    // The rendered head ends with its empty line: the added fields go before it.
    std::string head = std::move(upload_head_);
    head.resize(head.size() - 2);
    for (const auto& [name, value] : fields) head.append(name).append(": ").append(value) += "\r\n";
    head += "\r\n";
    // Rendered from a head that parsed, with fields the receiver made: it parses again.
    hooks_.deliver(*parse_request_head(std::string_view(head).substr(0, head.size() - 4)), {});
}

std::string_view RequestStream::read_body(std::string_view bytes) {
    if (state_ == State::read_length) {
        const size_t n = static_cast<size_t>(std::min<long long>(remaining_, bytes.size()));
        keep_body(bytes.substr(0, n));
        remaining_ -= static_cast<long long>(n);
        if (remaining_ == 0) deliver_read();
        return bytes.substr(n);
    }
    const size_t n = chunked_.feed(bytes, [this](std::string_view payload) { keep_body(payload); });
    if (chunked_.failed()) {
        // Pistache gets the request as it was sent, and finds the same fault.
        std::string sent = std::move(pending_head_);
        sent.append(chunked_bytes_).append(bytes);
        pending_head_.clear();
        chunked_bytes_.clear();
        to_raw(sent);
        return {};
    }
    if (chunked_.done()) {
        chunked_bytes_.clear();
        deliver_read();
    } else if (body_size_ <= max_body_bytes_) {
        chunked_bytes_.append(bytes.substr(0, n));
    } else {
        // A body read past is not held as sent either: Pistache then gets the fault without it.
        chunked_bytes_.clear();
    }
    return bytes.substr(n);
}

void RequestStream::keep_body(std::string_view payload) {
    body_size_ += static_cast<long long>(payload.size());
    if (body_size_ <= max_body_bytes_)
        body_.append(payload);
    else
        body_.clear();
}

void RequestStream::deliver_read() {
    state_ = State::head;
    const std::string head = std::move(pending_head_);
    pending_head_.clear();
    const std::string body = std::move(body_);
    body_.clear();
    // The head parsed when it arrived.
    const auto parsed = parse_request_head(std::string_view(head).substr(0, head.size() - 4));
    deliver_sent(*parsed, {body_size_ <= max_body_bytes_ ? body : std::string_view(), body_size_});
}

std::string_view RequestStream::take_body(std::string_view bytes) {
    const auto take = [this](std::string_view payload) {
        if (!upload_settled_ && !receiver_->take(payload)) settle_upload(false);
    };
    size_t n = 0;
    bool ended = false;
    if (state_ == State::take_length) {
        n = static_cast<size_t>(std::min<long long>(remaining_, bytes.size()));
        take(bytes.substr(0, n));
        remaining_ -= static_cast<long long>(n);
        ended = remaining_ == 0;
    } else {
        n = chunked_.feed(bytes, take);
        if (chunked_.failed()) {
            // The body's end is lost: the upload is refused and the connection left to Pistache,
            // which finds the same fault.
            settle_upload(false);
            receiver_.reset();
            to_raw(bytes.substr(n));
            return {};
        }
        ended = chunked_.done();
    }
    if (ended) {
        settle_upload(true);
        receiver_.reset();
        state_ = State::head;
    }
    return bytes.substr(n);
}

void RequestStream::to_raw(std::string_view bytes) {
    state_ = State::raw;
    if (!head_buffer_.empty()) hooks_.forward(head_buffer_);
    head_buffer_.clear();
    if (!bytes.empty()) hooks_.forward(bytes);
}

}  // namespace squawk::api
