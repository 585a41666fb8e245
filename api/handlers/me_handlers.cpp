#include "api/handlers/me_handlers.hpp"

#include "common/core/error/api_error.hpp"
#include "common/domain/workspace/workspace_repository.hpp"

namespace squawk::api::handlers {

Reply get_me(const RequestContext& ctx, Services& services) {
    const auto ws = services.workspaces.find(services.mysql, ctx.workspace_id, ctx.identity_epoch);
    if (!ws) throw ApiError(ErrorCode::NotFound, "The key's workspace no longer exists.");
    const auto& key = ctx.api_key();
    // Scopes are listed as stored: "*" stays "*" (every scope, including ones added later).
    return Reply::ok({{"workspace",
                       {{"id", ws->id},
                        {"name", ws->name},
                        {"created_at", time::format_iso8601(ws->created_at)}}},
                      {"key",
                       {{"prefix", key.prefix},
                        {"type", key.type == auth::KeyType::test ? "test" : "live"},
                        {"scopes", key.scopes},
                        {"rate_limit", key.rate_limit ? nlohmann::json(*key.rate_limit)
                                                      : nlohmann::json(nullptr)}}}});
}

Reply get_balance(const RequestContext& ctx, Services& services) {
    const auto b = services.mysql.run([&](db::Session& s) {
        return workspace::WorkspaceRepository::balance(s, ctx.caller_workspace_id);
    });
    return Reply::ok({{"currency", b.currency},
                      {"balance",
                       {{"total", workspace::format_credits(b.total_units())},
                        {"purchased", workspace::format_credits(b.purchased_units)},
                        {"monthly", workspace::format_credits(b.monthly_units)}}}});
}

}  // namespace squawk::api::handlers
