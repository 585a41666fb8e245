#include "common/core/daemon/api_settings.hpp"

#include "common/core/config/host_port.hpp"
#include "common/core/config/section_schema.hpp"

namespace squawk::config {
namespace {

Row<ApiSettings> listen_address() {
    return {"listen", [](ApiSettings& api, const Scalar& value, const std::string& path) {
                const auto* v = std::get_if<std::string>(&value);
                if (!v) bad_value(path, "expected \"host:port\"");
                auto address = parse_host_port(*v, 0);
                if (!address) bad_value(path, "expected \"host:port\" with a port from 0 to 65535");
                api.listen_host = std::move(address->host);
                api.listen_port = address->port;
            }};
}

}  // namespace

SectionSchema<ApiSettings> api_schema() {
    return {{
                listen_address(),
                integer("threads", &ApiSettings::threads, 1, 256),
                integer("max_body_bytes", &ApiSettings::max_body_bytes, 1024, 64LL << 20),
                integer("key_cache_seconds", &ApiSettings::key_cache_seconds, 0, 3600),
                integer("request_timeout_ms", &ApiSettings::request_timeout_ms, 100, 3600000),
                integer("keepalive_timeout_ms", &ApiSettings::keepalive_timeout_ms, 100, 3600000),
                text("public_base_url", &ApiSettings::public_base_url, false),
            },
            {}};
}

}  // namespace squawk::config
