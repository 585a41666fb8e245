// Pistache 0.0.5 silently drops headers added with addRaw(); custom response headers
// (X-Request-Id, Allow) go through this typed header instead.
#pragma once

#include <pistache/http_header.h>

#include <string>

namespace squawk::api {

class ResponseHeader : public Pistache::Http::Header::Header {
  public:
    ResponseHeader(std::string name, std::string value)
        : name_(std::move(name)), value_(std::move(value)) {}

    const char* name() const override { return name_.c_str(); }
    void write(std::ostream& os) const override { os << value_; }
#ifdef SAFE_HEADER_CAST
    uint64_t hash() const override {
        return Pistache::Http::Header::detail::hash(name_.c_str());
    }
#endif

  private:
    std::string name_;
    std::string value_;
};

}  // namespace squawk::api
