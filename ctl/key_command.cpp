#include "common/domain/auth/api_key.hpp"
#include "common/domain/auth/identity_epoch.hpp"
#include "ctl/commands.hpp"
#include "ctl/context.hpp"
#include "ctl/scope_list.hpp"
#include "ctl/table.hpp"
#include "ctl/usage_error.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace squawk::ctl {
namespace {

struct KeyCreateOptions {
    long long workspace_id = 0;
    std::string type;
    std::string scopes;
    int rate_limit = 0;
    CLI::Option* rate_limit_option = nullptr;
};

std::string join(const std::set<std::string>& scopes) {
    std::string out;
    for (const auto& s : scopes) out += (out.empty() ? "" : ",") + s;
    return out == "*" ? "all" : out;
}

void add_key_create(CLI::App& group, Context& context) {
    auto* create = group.add_subcommand(
        "create", "Create an API key and print it once on stdout; it cannot be shown again");
    auto o = std::make_shared<KeyCreateOptions>();
    create->add_option("--workspace", o->workspace_id, "Workspace id")
        ->required()
        ->check(CLI::PositiveNumber);
    create->add_option("--type", o->type, "test or live")
        ->required()
        ->check(CLI::IsMember({"test", "live"}));
    create->add_option("--scopes", o->scopes, "\"all\" or a comma-separated list of scopes")
        ->required();
    o->rate_limit_option =
        create->add_option("--rate-limit", o->rate_limit, "Requests per minute for this key")
            ->check(CLI::PositiveNumber);
    create->callback([&context, o] {
        const auto scopes = parse_scope_list(o->scopes);
        std::optional<int> rate_limit;
        if (o->rate_limit_option->count() > 0) rate_limit = o->rate_limit;
        const auto type = o->type == "live" ? auth::KeyType::live : auth::KeyType::test;
        const auto created = context.mysql().transaction([&](db::Session& s) {
            require_workspace(s, o->workspace_id);
            return auth::ApiKeyRepository::create(s, o->workspace_id, type, scopes, rate_limit);
        });
        std::cout << created.secret << '\n';
    });
}

void add_key_list(CLI::App& group, Context& context) {
    auto* list =
        group.add_subcommand("list", "List a workspace's keys (never the keys themselves)");
    auto workspace_id = std::make_shared<long long>(0);
    list->add_option("--workspace", *workspace_id, "Workspace id")
        ->required()
        ->check(CLI::PositiveNumber);
    list->callback([&context, workspace_id] {
        const auto keys = context.mysql().run([&](db::Session& s) {
            require_workspace(s, *workspace_id);
            return auth::ApiKeyRepository::list(s, *workspace_id);
        });
        Table table({"id", "prefix", "type", "scopes", "rate_limit", "created", "revoked"});
        for (const auto& k : keys)
            table.add({std::to_string(k.key.id), k.key.prefix,
                       k.key.type == auth::KeyType::live ? "live" : "test", join(k.key.scopes),
                       k.key.rate_limit ? std::to_string(*k.key.rate_limit) : "-",
                       time::format_iso8601(k.created_at),
                       k.revoked_at ? time::format_iso8601(*k.revoked_at) : "-"});
        table.print(std::cout);
    });
}

void add_key_revoke(CLI::App& group, Context& context) {
    auto* revoke = group.add_subcommand("revoke", "Revoke a key; it is refused from then on");
    auto key_id = std::make_shared<long long>(0);
    revoke->add_option("--id", *key_id, "Key id (from key list)")
        ->required()
        ->check(CLI::PositiveNumber);
    revoke->callback([&context, key_id] {
        const bool revoked = context.mysql().run(
            [&](db::Session& s) { return auth::ApiKeyRepository::revoke(s, *key_id); });
        if (!revoked) throw std::runtime_error("no active key with id " + std::to_string(*key_id));
        try {
            auth::IdentityEpoch::announce(context.redis());
        } catch (const redis::RedisUnavailable& e) {
            std::cerr << "squawkctl: the key is revoked, but API processes that cached it may "
                         "accept it for up to api.key_cache_seconds: "
                      << e.what() << '\n';
        }
        std::cout << "revoked key " << *key_id << '\n';
    });
}

}  // namespace

void add_key_commands(CLI::App& app, Context& context) {
    auto* group = app.add_subcommand("key", "Manage API keys");
    group->require_subcommand(1);
    add_key_create(*group, context);
    add_key_list(*group, context);
    add_key_revoke(*group, context);
}

}  // namespace squawk::ctl
