#include "api/server/envelope.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/text/json_string.hpp"
#include "common/core/time/clock.hpp"

namespace squawk::api {

std::string new_request_id() {
    return "req_" + crypto::uuid_v4();
}

Meta make_meta(std::string request_id) {
    return {std::move(request_id), time::format_iso8601(time::now())};
}

namespace {
nlohmann::json meta_json(const Meta& meta) {
    return {{"request_id", meta.request_id}, {"timestamp", meta.timestamp}};
}
}  // namespace

nlohmann::json success_envelope(nlohmann::json data, std::optional<nlohmann::json> pagination,
                                const Meta& meta, std::optional<nlohmann::json> usage) {
    nlohmann::json envelope = nlohmann::json::object();
    envelope["success"] = true;
    envelope["data"] = std::move(data);
    if (pagination) envelope["pagination"] = std::move(*pagination);
    if (usage) envelope["usage"] = std::move(*usage);
    envelope["meta"] = meta_json(meta);
    return envelope;
}

nlohmann::json error_envelope(const ApiError& error, const Meta& meta) {
    return {
        {"success", false},
        {"error",
         {{"code", error.info().code},
          {"message", error.what()},
          {"details", error.details().is_object() ? error.details() : nlohmann::json::object()}}},
        {"meta", meta_json(meta)}};
}

std::string to_wire(const nlohmann::json& envelope) {
    return envelope.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The members in the order nlohmann writes an object's: by name.
std::string success_wire(std::string_view data_wire, const Meta& meta) {
    std::string out;
    out.reserve(data_wire.size() + 128);
    out += R"({"data":)";
    out += data_wire;
    out += R"(,"meta":{"request_id":)";
    text::append_json_string(out, meta.request_id);
    out += R"(,"timestamp":)";
    text::append_json_string(out, meta.timestamp);
    out += R"(},"success":true})";
    return out;
}

}  // namespace squawk::api
