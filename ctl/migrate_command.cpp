#include "common/core/config/config.hpp"
#include "common/core/db/migrator.hpp"
#include "ctl/commands.hpp"
#include "ctl/context.hpp"
#include "ctl/usage_error.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <memory>

namespace squawk::ctl {

void add_migrate_command(CLI::App& app, Context& context) {
    auto* command =
        app.add_subcommand("migrate", "Create the database if needed and apply new migrations");
    auto directory = std::make_shared<std::string>();
    command->add_option("--dir", *directory,
                        "Migrations directory (default: SQUAWK_MIGRATIONS_DIR, then "
                        "config/migrations, then the installed one)");
    command->callback([&context, directory] {
        const std::string dir = directory->empty() ? db::Migrator::default_directory() : *directory;
        if (!std::filesystem::is_directory(dir))
            throw UsageError("migrations directory '" + dir + "' does not exist");
        db::Migrator::ensure_database(context.config().mysql);
        const auto applied = db::Migrator::apply(context.mysql(), dir);
        if (applied.empty()) {
            std::cout << "schema is current (database " << context.config().mysql.database << ")\n";
            return;
        }
        for (const auto& m : applied) std::cout << "applied " << m.version << " " << m.name << '\n';
    });
}

}  // namespace squawk::ctl
