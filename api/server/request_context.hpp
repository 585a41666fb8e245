// What a route handler receives (the authenticated, decoded request) and what it returns.
// The server turns a Reply into the response envelope; handlers never touch HTTP objects.
#pragma once

#include "api/server/received_upload.hpp"
#include "api/server/url_decode.hpp"
#include "common/domain/auth/api_key.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace squawk::api {

using PathParams = std::map<std::string, std::string>;

struct RequestContext {
    std::string request_id;
    std::optional<auth::ApiKey> key;  // absent on public routes
    // The workspace the request acts in: the profile's under X-Profile-Id, else the key's own.
    long long workspace_id = 0;
    // The key's own workspace: billing, rate limits, usage and the request log stay on it.
    long long caller_workspace_id = 0;
    std::optional<long long> profile_id;
    bool is_test = false;
    // The identity epoch current after the request arrived (auth::IdentityEpoch): records cached
    // under it may answer this request. Nothing when Redis could not vouch for it.
    std::optional<long long> identity_epoch;
    // The billable operation of the route (config billing.prices), or empty: the handler reserves
    // its price per unit when it accepts the job (api/server/billing_gate.hpp).
    std::string_view billable_as;
    PathParams path_params;
    QueryParams query;
    nlohmann::json body;  // a JSON object, or null when the request had no body
    // The received upload on routes that take one (whose body is never parsed as JSON).
    std::shared_ptr<ReceivedUpload> upload;
    std::optional<std::string> content_type;
    std::optional<std::string> range;  // the Range header (file downloads)

    // A path parameter the route pattern declares (the router guarantees it is present).
    const std::string& param(const std::string& name) const { return path_params.at(name); }
    // The key of an authenticated route; routes marked public never call this.
    const auth::ApiKey& api_key() const { return key.value(); }
};

// A file sent as the response body instead of an envelope (media downloads).
struct FileBody {
    // Bytes first..last (inclusive) of a file of `size` bytes: 206 with Content-Range.
    struct Slice {
        long long first = 0;
        long long last = 0;
        long long size = 0;
    };
    std::string path;
    std::string mime_type;
    std::optional<Slice> slice;  // nothing: the whole file
};

// Bytes sent as they are instead of an envelope (the OpenAPI document).
struct RawBody {
    std::string bytes;
    std::string mime_type;
};

struct Reply {
    int status = 200;
    nlohmann::json data = nlohmann::json::object();
    // Sent as is, without the envelope (GET /profiles/{id} answers the bare record, spec 2.1).
    bool bare = false;
    std::optional<nlohmann::json> pagination;
    std::optional<nlohmann::json> usage;  // {cost, balance_remaining} of a billable call
    // The data already serialized (to_wire), sent in the envelope instead of `data`.
    std::optional<std::string> data_wire;
    std::optional<FileBody> file;
    std::optional<RawBody> raw;
    // Sent as 302 Found with this Location and no body.
    std::optional<std::string> redirect_to;
    // Sent as they are (the dashboard's cookies and security policy).
    std::vector<std::pair<std::string, std::string>> headers;

    static Reply ok(nlohmann::json data, int status = 200) {
        Reply r;
        r.status = status;
        r.data = std::move(data);
        return r;
    }
    static Reply ok_serialized(std::string data_wire) {
        Reply r;
        r.data_wire = std::move(data_wire);
        return r;
    }
    static Reply bare_object(nlohmann::json data) {
        Reply r = ok(std::move(data));
        r.bare = true;
        return r;
    }
    static Reply page(nlohmann::json items, nlohmann::json pagination) {
        Reply r = ok(std::move(items));
        r.pagination = std::move(pagination);
        return r;
    }
    static Reply send_file(FileBody body) {
        Reply r;
        r.file = std::move(body);
        return r;
    }
    static Reply send_raw(RawBody body) {
        Reply r;
        r.raw = std::move(body);
        return r;
    }
    static Reply redirect(std::string location) {
        Reply r;
        r.status = 302;
        r.redirect_to = std::move(location);
        return r;
    }
};

}  // namespace squawk::api
