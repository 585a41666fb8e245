// The squawkctl commands: each file registers its subcommands on the application, and each
// subcommand's callback does the work once the whole command line has been parsed.
#pragma once

namespace CLI {
class App;
}

namespace squawk::ctl {

class Context;

void add_migrate_command(CLI::App& app, Context& context);
void add_workspace_commands(CLI::App& app, Context& context);
void add_key_commands(CLI::App& app, Context& context);
void add_jobs_commands(CLI::App& app, Context& context);
void add_stats_command(CLI::App& app, Context& context);
void add_dead_letter_commands(CLI::App& app, Context& context);
void add_wallet_commands(CLI::App& app, Context& context);
void add_user_commands(CLI::App& app, Context& context);

}  // namespace squawk::ctl
