#include "api/server/answer.hpp"

#include "api/server/connection_writer.hpp"

#include <algorithm>
#include <charconv>

namespace squawk::api {
namespace {

namespace Http = Pistache::Http;

void append_field_text(std::string& out, std::string_view text) {
    const size_t start = out.size();
    out.append(text);
    std::replace_if(
        out.begin() + static_cast<std::ptrdiff_t>(start), out.end(),
        [](char c) { return c == '\r' || c == '\n'; }, ' ');
}

void append_number(std::string& out, size_t value) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    out.append(digits, end);
}

}  // namespace

Answer::Answer(Pistache::Tcp::Transport& transport, std::shared_ptr<Pistache::Tcp::Peer> peer,
               Http::Version version, Http::ConnectionControl connection)
    : transport_(&transport), peer_(std::move(peer)), version_(version), connection_(connection) {}

void Answer::add_header(std::string_view name, std::string_view value) {
    append_field_text(headers_, name);
    headers_ += ": ";
    append_field_text(headers_, value);
    headers_ += "\r\n";
}

std::string Answer::head(int status, size_t content_length, std::string_view content_type) const {
    std::string out;
    out.reserve(160 + headers_.size());
    out += Http::versionString(version_);
    out += ' ';
    append_number(out, static_cast<size_t>(status));
    out += ' ';
    out += Http::codeString(static_cast<Http::Code>(status));
    out += "\r\nConnection: ";
    out += connection_ == Http::ConnectionControl::KeepAlive ? "Keep-Alive" : "Close";
    out += "\r\n";
    out += headers_;
    if (!content_type.empty()) {
        out += "Content-Type: ";
        append_field_text(out, content_type);
        out += "\r\n";
    }
    out += "Content-Length: ";
    append_number(out, content_length);
    out += "\r\n\r\n";
    return out;
}

void Answer::send(int status, std::string_view body, std::string_view content_type) {
    std::string bytes = head(status, body.size(), content_type);
    bytes.append(body);
    write_to_connection(*transport_, *peer_, std::move(bytes));
}

void Answer::send_file(const std::string& path, std::string_view content_type) {
    const Pistache::FileBuffer file(path);
    write_to_connection(*transport_, *peer_, head(200, file.size(), content_type));
    queue_file(*transport_, *peer_, file);
}

}  // namespace squawk::api
