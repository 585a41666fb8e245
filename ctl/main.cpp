// squawkctl: the operator's command line (migrations, workspaces, API keys, jobs, queue stats).
// Exit codes: 0 done, 2 bad arguments or configuration, 1 anything else that failed.
#include "common/core/config/config.hpp"
#include "common/core/log/logger.hpp"
#include "ctl/commands.hpp"
#include "ctl/context.hpp"
#include "ctl/usage_error.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv) {
    using namespace squawk;
    // Scripts read stdout (a new id, a key): library logging must not interleave with it.
    log::set_component("squawkctl");
    log::set_level("error");

    CLI::App app{"squawkctl: operate a Squawk deployment"};
    ctl::Context context;
    app.add_option("--config", context.config_option,
                   "Config file (default: SQUAWK_CONFIG, then config/squawk.toml)");
    app.require_subcommand(1);
    app.fallthrough();
    ctl::add_migrate_command(app, context);
    ctl::add_workspace_commands(app, context);
    ctl::add_key_commands(app, context);
    ctl::add_jobs_commands(app, context);
    ctl::add_stats_command(app, context);
    ctl::add_dead_letter_commands(app, context);
    ctl::add_wallet_commands(app, context);
    ctl::add_user_commands(app, context);

    try {
        app.parse(argc, argv);
        return 0;
    } catch (const CLI::Error& e) {
        return app.exit(e) == 0 ? 0 : 2;
    } catch (const config::ConfigError& e) {
        std::cerr << "squawkctl: " << e.what() << '\n';
        return 2;
    } catch (const ctl::UsageError& e) {
        std::cerr << "squawkctl: " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "squawkctl: " << e.what() << '\n';
        return 1;
    }
}
