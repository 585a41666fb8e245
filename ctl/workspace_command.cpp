#include "common/domain/workspace/workspace_repository.hpp"
#include "ctl/commands.hpp"
#include "ctl/context.hpp"
#include "ctl/usage_error.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace squawk::ctl {

void add_workspace_commands(CLI::App& app, Context& context) {
    auto* group = app.add_subcommand("workspace", "Manage workspaces");
    group->require_subcommand(1);

    auto* create =
        group->add_subcommand("create", "Create a workspace and print only its id (for scripts)");
    auto name = std::make_shared<std::string>();
    create->add_option("--name", *name, "Workspace name")->required();
    create->callback([&context, name] {
        if (name->empty() || name->size() > 200)
            throw UsageError("--name must be 1 to 200 characters");
        const auto created = context.mysql().transaction(
            [&](db::Session& s) { return workspace::WorkspaceRepository::create(s, *name); });
        std::cout << created.id << '\n';
    });
}

}  // namespace squawk::ctl
