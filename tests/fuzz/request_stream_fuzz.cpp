// A connection's bytes through the request stream, as one read and as many small ones: the same
// requests must be delivered, Pistache handed the same bytes and every upload the same payload
// either way.
#include "api/server/request_stream.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

class Collecting : public squawk::api::BodyReceiver {
  public:
    explicit Collecting(std::string& out) : out_(out) {}
    bool refused_at_head() const override { return false; }
    bool take(std::string_view bytes) override {
        out_.append(bytes);
        return true;
    }
    std::vector<std::pair<std::string, std::string>> settle(bool complete) override {
        out_ += complete ? "<end>" : "<cut>";
        return {{"X-Squawk-Upload", "t"}};
    }

  private:
    std::string& out_;
};

std::string run(std::string_view input, size_t piece) {
    std::string out;
    squawk::api::RequestStream stream(
        {
            .deliver =
                [&](const squawk::api::RequestHead& head, squawk::api::RequestBody body) {
                    out += "<request>" + squawk::api::render_request_head(head, {}, {});
                    out += body.bytes;
                    out += "<" + std::to_string(body.size) + ">";
                },
            .forward = [&](std::string_view bytes) { out.append(bytes); },
            .receiver = [&](const squawk::api::RequestHead& head)
                -> std::unique_ptr<squawk::api::BodyReceiver> {
                if (head.path() != "/u") return nullptr;
                return std::make_unique<Collecting>(out);
            },
            .send_continue = [&] { out += "<100>"; },
        },
        64);
    for (size_t at = 0; at < input.size(); at += piece) stream.feed(input.substr(at, piece));
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::string whole = run(input, input.size() + 1);
    if (run(input, 1) != whole) std::abort();
    if (run(input, size % 7 + 2) != whole) std::abort();
    return 0;
}
