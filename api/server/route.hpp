// One row of the route table: method, path pattern, who may call it, and the handler.
// Each family declares its rows beside its handlers; api/handlers/routes.cpp joins them in one
// table, which tests walk against the OpenAPI document.
#pragma once

#include "api/server/request_context.hpp"

#include <string_view>

namespace squawk::api {

struct Services;

// Who may call a route: anyone, any valid key, or a key holding one scope.
struct Access {
    enum class Kind { open, any_key, scope };
    Kind kind = Kind::open;
    std::string_view scope;

    static constexpr Access open_to_all() { return {Kind::open, {}}; }
    static constexpr Access any_key() { return {Kind::any_key, {}}; }
    static constexpr Access needs(std::string_view s) { return {Kind::scope, s}; }
};

using HandlerFn = Reply (*)(const RequestContext&, Services&);

// Rows are built with the factories and modifiers below, e.g.
// Route::post("/v1/audio/text-to-speech", Access::needs("audio:write"),
// h).billable("text_to_speech").
struct Route {
    std::string_view method;   // "GET", "POST", ...
    std::string_view pattern;  // "/v1/jobs/{job_id}"
    Access access;
    HandlerFn handler = nullptr;
    bool rate_limited = true;      // counts toward the caller's request limit (spec 8.1)
    bool accepts_profile = true;   // whether X-Profile-Id may be sent (spec 5.6)
    std::string_view billable_as;  // a billable operation (config billing.prices), or empty
    // X-Request-Id also acts as the idempotency key, and a replay answers 200 with
    // data.idempotent_replay true (spec 4.4 rule 4: post creation).
    bool request_id_is_key = false;
    // Takes a file upload as its body, up to media.max_upload_bytes: never parsed as JSON nor
    // held in memory, but streamed to disk as it arrives and handed over as
    // RequestContext::upload. The file is the whole body, or the part named `file` of a form.
    enum class Upload : unsigned char { none, whole_body, form_file };
    Upload upload = Upload::none;

    static constexpr Route make(std::string_view method, std::string_view pattern, Access access,
                                HandlerFn handler) {
        Route r;
        r.method = method;
        r.pattern = pattern;
        r.access = access;
        r.handler = handler;
        // Webhooks and profiles are managed from the owner's own workspace, never from inside a
        // profile (spec 4.2); profiles' events reach the owner's webhooks by fan-out.
        r.accepts_profile =
            !pattern.starts_with("/v1/webhooks") && !pattern.starts_with("/v1/profiles");
        return r;
    }
    static constexpr Route get(std::string_view p, Access a, HandlerFn h) {
        return make("GET", p, a, h);
    }
    static constexpr Route post(std::string_view p, Access a, HandlerFn h) {
        return make("POST", p, a, h);
    }
    static constexpr Route put(std::string_view p, Access a, HandlerFn h) {
        return make("PUT", p, a, h);
    }
    static constexpr Route patch(std::string_view p, Access a, HandlerFn h) {
        return make("PATCH", p, a, h);
    }
    static constexpr Route del(std::string_view p, Access a, HandlerFn h) {
        return make("DELETE", p, a, h);
    }

    constexpr Route unlimited() const {
        Route r = *this;
        r.rate_limited = false;
        return r;
    }
    constexpr Route keyed_by_request_id() const {
        Route r = *this;
        r.request_id_is_key = true;
        return r;
    }
    constexpr Route accepts_upload(Upload how) const {
        Route r = *this;
        r.upload = how;
        return r;
    }
    constexpr Route billable(std::string_view operation) const {
        Route r = *this;
        r.billable_as = operation;
        return r;
    }
};

}  // namespace squawk::api
