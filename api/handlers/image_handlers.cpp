// Images (scopes images:read / images:write): a card from a template rendered locally, or a
// picture from a prompt by the configured image provider, made in the generate pool.
#include "api/handlers/route_families.hpp"

#include "api/handlers/creation_routes.hpp"
#include "api/server/validation.hpp"
#include "common/domain/generation/image_provider_choice.hpp"
#include "common/domain/generation/image_request_json.hpp"
#include "common/domain/jobs/job_types.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

using generation::CreationKind;

// Generous outer bounds; each template's own limits are the provider's check().
constexpr size_t kMaxFieldChars = 1000;
constexpr size_t kMaxItems = 20;
constexpr size_t kMaxColors = 3;
constexpr size_t kColorChars = 7;

generation::ImageRequest read_image_request(const RequestContext& ctx, Validator& body,
                                            std::optional<std::string>& model) {
    generation::ImageRequest r;
    r.template_name = body.optional_string("template", 64).value_or("");
    r.prompt = body.optional_string("prompt", 4000).value_or("");
    if (r.template_name.empty() == r.prompt.empty())
        body.reject("template", "give either a template or a prompt");
    if (const auto size = body.optional_enum("size", generation::kImageSizeNames))
        r.size = generation::parse_image_size(*size).value_or(r.size);
    r.format = body.optional_enum<generation::ImageFormat>("format").value_or(r.format);
    r.title = body.optional_string("title", kMaxFieldChars).value_or("");
    r.subtitle = body.optional_string("subtitle", kMaxFieldChars).value_or("");
    r.text = body.optional_string("text", kMaxFieldChars).value_or("");
    r.author = body.optional_string("author", kMaxFieldChars).value_or("");
    r.items = body.optional_string_array("items", kMaxItems, kMaxFieldChars)
                  .value_or(std::vector<std::string>{});
    r.value = body.optional_string("value", kMaxFieldChars).value_or("");
    r.label = body.optional_string("label", kMaxFieldChars).value_or("");
    // One colour may come as a plain string.
    const auto background = ctx.body.is_object() ? ctx.body.find("background") : ctx.body.end();
    if (background != ctx.body.end() && background->is_string())
        r.background = {body.optional_string("background", kColorChars).value_or("")};
    else
        r.background = body.optional_string_array("background", kMaxColors, kColorChars)
                           .value_or(std::vector<std::string>{});
    r.text_color = body.optional_string("text_color", kColorChars).value_or("");
    r.accent_color = body.optional_string("accent_color", kColorChars).value_or("");
    model = body.optional_string("model", 200);
    body.reject_unknown_fields();
    return r;
}

// A prompt without a provider that takes prompts.
ApiError generation_provider_missing(const std::string& configured) {
    return provider_missing(generation::Modality::image,
                            configured.empty()
                                ? "No image provider is configured"
                                : "The image provider '" + configured + "' renders templates only");
}

Reply generate_image(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    std::optional<std::string> model;
    auto request = read_image_request(ctx, body, model);
    body.finish();

    const auto choice =
        generation::choose_image_provider(providers::registered(), services.config, request);
    if (!choice.provider) {
        if (!request.template_name.empty()) {
            body.reject("template",
                        "no provider renders the template '" + request.template_name + "'");
            body.finish();
        }
        throw generation_provider_missing(choice.name);
    }
    if (!request.prompt.empty())
        request.model = allowed_model(model, choice.provider->models());
    else if (model)
        body.reject("model", "a template is rendered locally; model applies to prompts only");
    for (const auto& problem : choice.provider->check(request))
        body.reject(problem.field, problem.message);
    body.finish();

    const auto payload = generation::to_json(request);
    check_content_policy(ctx, services, payload);
    return accept_creation(ctx, services, CreationKind::image, jobs::kGenerateImage, payload, 1);
}

}  // namespace

template <>
std::span<const Route> routes<Family::images>() {
    constexpr Access kRead = Access::needs("images:read");
    constexpr Access kWrite = Access::needs("images:write");
    static constexpr std::array kRoutes{
        Route::post("/v1/images/generate", kWrite, generate_image).billable("image"),
        Route::get("/v1/images", kRead, list_creations<CreationKind::image>),
        Route::get("/v1/images/{image_id}", kRead, get_creation<CreationKind::image>),
        Route::del("/v1/images/{image_id}", kWrite, delete_creation<CreationKind::image>),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
