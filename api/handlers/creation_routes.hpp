// The reads and the delete every generated family serves alike (articles, images, transcripts):
// list, get and delete of one kind of creation, tenant-scoped, plus the 202 answer of a generate
// call. A family's handler file names them in its route rows.
#pragma once

#include "api/render/creation_json.hpp"
#include "api/server/billing_gate.hpp"
#include "api/server/pagination.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/core/config/config.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/text/concat.hpp"
#include "common/domain/generation/content_policy_repository.hpp"
#include "common/domain/generation/creation_service.hpp"
#include "common/domain/media/media_service.hpp"
#include "common/extensions/providers/registered.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace squawk::api::handlers {

// The path parameter naming one creation of `kind` in its family's routes.
inline const char* creation_param(generation::CreationKind kind) {
    static constexpr const char* names[] = {"article_id", "image_id",        "audio_id",
                                            "video_id",   "presentation_id", "short_id"};
    return names[static_cast<size_t>(kind)];
}

inline generation::CreationService creations(Services& services) {
    return generation::CreationService(services.mysql, services.submitter, *services.storage);
}

// 422 MODEL_NOT_AVAILABLE naming the setting that chooses `modality`'s provider; `why` says what
// is missing.
inline ApiError provider_missing(generation::Modality modality, const std::string& why) {
    const std::string name = name_of(modality);
    std::string variable = "SQUAWK_GENERATION_" + name;
    std::transform(variable.begin(), variable.end(), variable.begin(),
                   [](char c) { return static_cast<char>(std::toupper(c)); });
    std::string registered;
    for (const auto& provider : providers::registered().names(modality))
        registered += (registered.empty() ? "" : ", ") + provider;
    return ApiError(ErrorCode::ModelNotAvailable,
                    text::concat({why, ": set [generation] ", name, " (", variable, ") to one of: ",
                                  registered, ", with its [providers.<name>] settings."}),
                    {{"setting", "generation." + name}});
}

// The provider [generation] <modality> names, or provider_missing().
template <class Interface>
std::unique_ptr<Interface> configured_provider(const Services& services) {
    try {
        return providers::registered().create_default<Interface>(services.config);
    } catch (const generation::UnknownProvider&) {
        throw provider_missing(
            Interface::kModality,
            std::string("No ") + name_of(Interface::kModality) + " provider is configured");
    }
}

// The model a request asked for when the provider allows it, else the provider's default;
// 422 MODEL_NOT_AVAILABLE listing the allowed ones otherwise.
inline std::string allowed_model(const std::optional<std::string>& asked,
                                 const std::vector<std::string>& allowed) {
    if (!asked) return allowed.empty() ? std::string() : allowed.front();
    if (std::find(allowed.begin(), allowed.end(), *asked) == allowed.end())
        throw ApiError(ErrorCode::ModelNotAvailable, "The model '" + *asked + "' is not available.",
                       {{"model", *asked}, {"available", allowed}});
    return *asked;
}

// The field of `request` whose text `blocked` finds (a dotted path with [index]), or nothing.
inline std::optional<std::string> blocked_field(
    const nlohmann::json& request, const std::string& path,
    const std::function<bool(const std::string&)>& blocked) {
    if (request.is_string()) {
        if (blocked(request.get_ref<const std::string&>())) return path;
    } else if (request.is_array()) {
        for (size_t i = 0; i < request.size(); ++i)
            if (auto f = blocked_field(request[i], path + "[" + std::to_string(i) + "]", blocked))
                return f;
    } else if (request.is_object()) {
        for (const auto& [key, value] : request.items())
            if (auto f = blocked_field(value, path.empty() ? key : path + "." + key, blocked))
                return f;
    }
    return std::nullopt;
}

// Refuses the call with 422 CONTENT_POLICY_VIOLATION when any text of `request` (a validated
// body: strings, arrays and objects of them) breaks the global content policy or the workspace's
// own lists (GET/PUT /content-policy); details name the field.
inline void check_content_policy(const RequestContext& ctx, Services& services,
                                 const nlohmann::json& request) {
    const auto own = generation::workspace_content_policy(services.mysql, ctx.workspace_id);
    const auto field = blocked_field(request, "", [&](const std::string& text) {
        return services.content_policy.violation(text) || (own && own->violation(text));
    });
    if (field)
        throw ApiError(ErrorCode::ContentPolicyViolation,
                       "The request asks for content this service does not generate.",
                       {{"field", *field}});
}

// A media item a generate call takes as input (field `field`): the workspace's own, ready, and of
// one of the `accepted` kinds or media types ("image", "image/png"); `described` names them in
// the problem recorded otherwise. Returns the media when it passes.
inline std::optional<media::Media> check_input_media(
    const RequestContext& ctx, Services& services, Validator& body, const std::string& field,
    const std::string& media_id, std::initializer_list<std::string_view> accepted,
    std::string_view described) {
    try {
        auto m = media::MediaService(services.mysql, services.config, *services.storage)
                     .get(ctx.workspace_id, media_id);
        const auto matches = [&](std::string_view a) { return a == m.kind || a == m.mime_type; };
        if (m.status != "ready")
            body.reject(field, "the media has not been uploaded and confirmed yet");
        else if (std::none_of(accepted.begin(), accepted.end(), matches))
            body.reject(field, text::concat({"the media is ", m.mime_type, ", not ", described}));
        else
            return m;
    } catch (const ApiError& e) {
        if (e.code() != ErrorCode::NotFound) throw;
        body.reject(field, "no media with this id");
    }
    return std::nullopt;
}

// Accepts a generate call: its creation and job commit together with the reservation of
// `quantity` units (at most what the job will make; billable_quantity.hpp) of the route's
// operation, and the answer's usage shows what was reserved.
inline Reply accept_creation(const RequestContext& ctx, Services& services,
                             generation::CreationKind kind, const jobs::JobType& type,
                             const nlohmann::json& request, long long quantity) {
    const auto payment = reservation_for(ctx, services, quantity);
    const auto submitted = creations(services).submit(ctx.workspace_id, kind, type, request,
                                                      ctx.is_test, payment ? &*payment : nullptr);
    Reply reply = Reply::ok(render::accepted_creation_json(submitted.creation, submitted.job), 202);
    if (!ctx.billable_as.empty())
        reply.usage = usage_json(ctx, services, submitted.job.reserved_units);
    return reply;
}

template <generation::CreationKind K>
Reply list_creations(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    const PageRequest page = read_page(query);
    query.finish();
    const auto found = creations(services).list(ctx.workspace_id, K, page.offset(), page.per_page);
    return page_reply(page, found, [&](const generation::Creation& c) {
        return render::creation_json(c, services.config.api.public_base_url);
    });
}

template <generation::CreationKind K>
Reply get_creation(const RequestContext& ctx, Services& services) {
    return Reply::ok(render::creation_json(
        creations(services).get(ctx.workspace_id, K, ctx.param(creation_param(K))),
        services.config.api.public_base_url));
}

template <generation::CreationKind K>
Reply delete_creation(const RequestContext& ctx, Services& services) {
    const std::string& id = ctx.param(creation_param(K));
    creations(services).remove(ctx.workspace_id, K, id, ctx.request_id);
    return Reply::ok({{"id", id}, {"deleted", true}});
}

}  // namespace squawk::api::handlers
