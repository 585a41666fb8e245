// The media library: list and read records (media:read), download files with byte ranges,
// upload directly or through a single-use upload URL then confirm, and delete (media:write).
#include "api/handlers/route_families.hpp"

#include "api/render/media_json.hpp"
#include "api/server/byte_range.hpp"
#include "api/server/pagination.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/core/config/config.hpp"
#include "common/core/error/api_error.hpp"
#include "common/domain/media/media_service.hpp"
#include "common/domain/media/media_types.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

// A ranged download reads its slice into memory: a larger range is answered with its first
// 16 MiB (the Content-Range says so) and the client asks again from there.
constexpr long long kMaxRangeBytes = 16LL * 1024 * 1024;
constexpr size_t kMaxFilenameChars = 255;

media::MediaService media_service(Services& services) {
    return media::MediaService(services.mysql, services.config, *services.storage);
}

const std::string& base_url(const Services& services) {
    return services.config.api.public_base_url;
}

size_t utf8_chars(std::string_view text) {
    size_t chars = 0;
    for (char c : text)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++chars;
    return chars;
}

// Why a client's file name cannot be kept, or empty: 1 to 255 characters, no folders, no
// control characters.
std::string filename_problem(std::string_view name) {
    if (name.empty()) return "must not be empty";
    if (utf8_chars(name) > kMaxFilenameChars) return "must be at most 255 characters";
    for (char c : name) {
        if (c == '/' || c == '\\') return "must not contain slashes";
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
            return "must not contain control characters";
    }
    return {};
}

// The name a form part gives its file; some clients send a whole path, of which RFC 7578
// section 4.2 keeps the last segment.
std::optional<std::string> upload_filename(const std::optional<std::string>& given) {
    if (!given || given->empty()) return std::nullopt;
    std::string name = *given;
    if (const size_t slash = name.find_last_of("/\\"); slash != std::string::npos)
        name = name.substr(slash + 1);
    if (name.empty()) return std::nullopt;
    if (auto problem = filename_problem(name); !problem.empty())
        throw validation_error({{"file", "the filename " + problem}});
    return name;
}

Reply list_media(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    const PageRequest page = read_page(query);
    const auto kind = query.optional_enum("type", media::kKinds);
    query.finish();
    const auto found =
        media_service(services).list(ctx.workspace_id, kind, page.offset(), page.per_page);
    return page_reply(page, found, [&](const media::Media& m) {
        return render::media_json(m, base_url(services));
    });
}

Reply get_media(const RequestContext& ctx, Services& services) {
    return Reply::ok(render::media_json(
        media_service(services).get(ctx.workspace_id, ctx.param("media_id")), base_url(services)));
}

Reply download_media(const RequestContext& ctx, Services& services) {
    auto file =
        media_service(services).file(ctx.workspace_id, ctx.param("media_id"), ctx.request_id);
    // The store serves it, ranges included.
    if (file.url) return Reply::redirect(std::move(*file.url));
    const auto range =
        resolve_byte_range(ctx.range ? std::optional<std::string_view>(*ctx.range) : std::nullopt,
                           file.size_bytes, kMaxRangeBytes);
    using Kind = ByteRangeAnswer::Kind;
    if (range.kind == Kind::unsatisfiable)
        throw ApiError(ErrorCode::RangeNotSatisfiable, {}, {{"size", file.size_bytes}});
    FileBody body{std::move(file.path), std::move(file.mime_type), std::nullopt};
    if (range.kind == Kind::whole) return Reply::send_file(std::move(body));
    body.slice = FileBody::Slice{range.first, range.last, file.size_bytes};
    Reply reply = Reply::send_file(std::move(body));
    reply.status = 206;
    return reply;
}

Reply delete_media(const RequestContext& ctx, Services& services) {
    const std::string& id = ctx.param("media_id");
    media_service(services).remove(
        ctx.workspace_id, id, render::media_download_url(base_url(services), id), ctx.request_id);
    return Reply::ok({{"media_id", id}, {"deleted", true}});
}

Reply upload_direct(const RequestContext& ctx, Services& services) {
    auto& upload = *ctx.upload;
    const auto m = media_service(services).upload(ctx.workspace_id, upload.file, upload.size_bytes,
                                                  upload_filename(upload.filename));
    return Reply::ok(render::media_json(m, base_url(services)), 201);
}

Reply create_upload_url(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const std::string filename = body.required_string("filename", kMaxFilenameChars);
    if (auto problem = filename_problem(filename); !filename.empty() && !problem.empty())
        body.reject("filename", problem);
    const auto type = body.optional_enum("content_type", media::announceable_mime_types());
    if (!type && !body.problems().contains("content_type"))
        body.reject("content_type", "is required");
    body.optional_integer("size_bytes", 1, services.config.media.max_upload_bytes);
    body.reject_unknown_fields();
    body.finish();
    const auto upload =
        media_service(services).create_upload_url(ctx.workspace_id, filename, *type);
    return Reply::ok(render::upload_url_json(upload, base_url(services)), 201);
}

Reply receive_upload(const RequestContext& ctx, Services& services) {
    auto& upload = *ctx.upload;
    const auto m =
        media_service(services).receive_upload(ctx.param("token"), upload.file, upload.size_bytes);
    return Reply::ok(render::media_json(m, base_url(services)));
}

Reply confirm_media(const RequestContext& ctx, Services& services) {
    const auto m =
        media_service(services).confirm(ctx.workspace_id, ctx.param("media_id"), ctx.request_id);
    return Reply::ok(render::media_json(m, base_url(services)));
}

}  // namespace

template <>
std::span<const Route> routes<Family::media>() {
    constexpr Access kRead = Access::needs("media:read");
    constexpr Access kWrite = Access::needs("media:write");
    // Literal paths come before /v1/media/{media_id}: the router takes the first match.
    static constexpr std::array kRoutes{
        Route::get("/v1/media", kRead, list_media),
        Route::post("/v1/media/upload-direct", kWrite, upload_direct)
            .accepts_upload(Route::Upload::form_file),
        Route::post("/v1/media/upload-url", kWrite, create_upload_url),
        // The upload URL's token is its authorization: no API key.
        Route::put("/v1/media/uploads/{token}", Access::open_to_all(), receive_upload)
            .accepts_upload(Route::Upload::whole_body)
            .unlimited(),
        Route::get("/v1/media/{media_id}", kRead, get_media),
        Route::del("/v1/media/{media_id}", kWrite, delete_media),
        Route::get("/v1/media/{media_id}/download", kRead, download_media),
        Route::post("/v1/media/{media_id}/confirm", kWrite, confirm_media),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
