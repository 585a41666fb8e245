// multipart/form-data bodies as the fake platforms read uploads: text fields and files, each
// file described by its part name, filename, content type and size.
#include "tests/fakes/platforms/fake_platform.hpp"

namespace squawk::fakes::platforms {
namespace {

// The value of `name="..."` in a header line; nothing when absent.
std::optional<std::string> parameter(const std::string& header, const std::string& name) {
    const auto at = header.find("; " + name + "=\"");
    if (at == std::string::npos) return std::nullopt;
    const auto start = at + name.size() + 4;
    const auto end = header.find('"', start);
    if (end == std::string::npos) return std::nullopt;
    return header.substr(start, end - start);
}

std::string header_line(const std::string& head, const std::string& lower_name) {
    size_t pos = 0;
    while (pos < head.size()) {
        const auto end = std::min(head.find("\r\n", pos), head.size());
        std::string line = head.substr(pos, end - pos);
        std::string lower = line;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower.starts_with(lower_name + ":")) {
            line.erase(0, lower_name.size() + 1);
            while (!line.empty() && line.front() == ' ') line.erase(0, 1);
            return line;
        }
        pos = end + 2;
    }
    return {};
}

}  // namespace

std::optional<Form> parse_form(const HttpRequest& request) {
    const auto type = request.headers.find("content-type");
    if (type == request.headers.end() || !type->second.starts_with("multipart/form-data"))
        return std::nullopt;
    const auto at = type->second.find("boundary=");
    if (at == std::string::npos) return std::nullopt;
    std::string boundary = type->second.substr(at + 9);
    if (boundary.size() >= 2 && boundary.front() == '"')
        boundary = boundary.substr(1, boundary.size() - 2);
    const std::string delimiter = "--" + boundary;
    const std::string& body = request.body;
    Form form;
    size_t pos = body.find(delimiter);
    if (pos == std::string::npos) return std::nullopt;
    for (;;) {
        pos += delimiter.size();
        if (body.compare(pos, 2, "--") == 0) return form;
        if (body.compare(pos, 2, "\r\n") != 0) return std::nullopt;
        const auto head_end = body.find("\r\n\r\n", pos + 2);
        if (head_end == std::string::npos) return std::nullopt;
        const std::string head = body.substr(pos + 2, head_end - pos - 2);
        const auto next = body.find("\r\n" + delimiter, head_end + 4);
        if (next == std::string::npos) return std::nullopt;
        const auto disposition = header_line(head, "content-disposition");
        const auto name = parameter(disposition, "name");
        if (!disposition.starts_with("form-data") || !name) return std::nullopt;
        const auto content_start = head_end + 4;
        if (const auto filename = parameter(disposition, "filename"))
            form.files[*name] = {{"name", *name},
                                 {"filename", *filename},
                                 {"content_type", header_line(head, "content-type")},
                                 {"bytes", next - content_start}};
        else
            form.fields[*name] = body.substr(content_start, next - content_start);
        pos = next + 2;
    }
}

}  // namespace squawk::fakes::platforms
