#include "common/core/error/api_error.hpp"
#include "common/domain/users/user_service.hpp"
#include "ctl/commands.hpp"
#include "ctl/context.hpp"
#include "ctl/usage_error.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace squawk::ctl {
namespace {

struct UserCreateOptions {
    long long workspace_id = 0;
    CLI::Option* workspace_option = nullptr;
    bool operator_ = false;
    std::string email;
    std::string role;
};

// The whole of standard input but a final line break, so `echo secret |` and a file both work
// and the password never appears in the process list or the shell's history.
std::string read_password() {
    std::string password(std::istreambuf_iterator<char>(std::cin), {});
    while (!password.empty() && (password.back() == '\n' || password.back() == '\r'))
        password.pop_back();
    return password;
}

// The fields a refused user names, as one line for the operator.
std::string describe(const ApiError& error) {
    std::string out = error.what();
    const auto& fields = error.details().value("fields", nlohmann::json::object());
    for (const auto& [field, problem] : fields.items())
        out += "; " + field + ": " + problem.get<std::string>();
    return out;
}

void add_user_create(CLI::App& group, Context& context) {
    auto* create = group.add_subcommand(
        "create", "Create a dashboard user; the password is read from standard input");
    auto o = std::make_shared<UserCreateOptions>();
    o->workspace_option = create->add_option("--workspace", o->workspace_id, "Workspace id")
                              ->check(CLI::PositiveNumber);
    auto* operator_flag =
        create->add_flag("--operator", o->operator_, "A server-wide operator (no workspace)");
    create->add_option("--email", o->email, "The user's email, used to sign in")->required();
    auto* role = create->add_option("--role", o->role, "owner, developer or viewer")
                     ->check(CLI::IsMember({"owner", "developer", "viewer"}));
    o->workspace_option->excludes(operator_flag);
    role->excludes(operator_flag);
    create->callback([&context, o] {
        users::NewUser request;
        request.email = o->email;
        if (o->operator_) {
            request.role = users::Role::operator_;
        } else {
            if (o->workspace_option->count() == 0 || o->role.empty())
                throw UsageError("--workspace and --role are required, or --operator");
            request.workspace_id = o->workspace_id;
            request.role = *users::parse_role(o->role);
        }
        request.password = read_password();
        try {
            const auto user = context.mysql().transaction(
                [&](db::Session& s) { return users::UserService::create(s, request); });
            std::cout << user.id << '\n';
        } catch (const ApiError& e) {
            throw UsageError(describe(e));
        }
    });
}

}  // namespace

void add_user_commands(CLI::App& app, Context& context) {
    auto* group = app.add_subcommand("user", "Manage dashboard users");
    group->require_subcommand(1);
    add_user_create(*group, context);
}

}  // namespace squawk::ctl
