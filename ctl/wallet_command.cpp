#include "common/domain/billing/credits.hpp"
#include "common/domain/billing/wallet.hpp"
#include "common/domain/workspace/workspace_repository.hpp"
#include "ctl/commands.hpp"
#include "ctl/context.hpp"
#include "ctl/table.hpp"
#include "ctl/usage_error.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace squawk::ctl {
namespace {

long long credits_option(const std::string& text, const std::string& option, bool may_be_zero) {
    const auto units = billing::parse_credits(text);
    if (!units || (!may_be_zero && *units == 0))
        throw UsageError(option + " must be a " + (may_be_zero ? "" : "positive ") +
                         "number of credits with at most 4 fraction digits, for example 12.5");
    return *units;
}

void add_wallet_credit(CLI::App& group, Context& context) {
    auto* credit = group.add_subcommand(
        "credit", "Add purchased credit to a workspace's wallet; prints the new balance");
    auto workspace_id = std::make_shared<long long>(0);
    auto amount = std::make_shared<std::string>();
    auto reference = std::make_shared<std::string>("squawkctl");
    credit->add_option("--workspace", *workspace_id, "Workspace id")
        ->required()
        ->check(CLI::PositiveNumber);
    credit->add_option("--amount", *amount, "Credits to add, e.g. 12.5")->required();
    credit->add_option("--reference", *reference, "Recorded in the ledger (an invoice number)");
    credit->callback([&context, workspace_id, amount, reference] {
        const long long units = credits_option(*amount, "--amount", false);
        if (reference->size() > 100) throw UsageError("--reference must be at most 100 characters");
        const long long total = context.mysql().transaction([&](db::Session& s) {
            require_workspace(s, *workspace_id);
            return billing::Wallet::credit(s, *workspace_id, units, *reference);
        });
        std::cout << workspace::format_credits(total) << '\n';
    });
}

void add_wallet_auto_recharge(CLI::App& group, Context& context) {
    auto* recharge = group.add_subcommand(
        "auto-recharge", "Set a wallet's auto-recharge threshold and amount, or turn it off");
    struct Options {
        long long workspace_id = 0;
        bool enable = false;
        bool disable = false;
        std::string below = "0";
        std::string amount = "0";
    };
    auto o = std::make_shared<Options>();
    recharge->add_option("--workspace", o->workspace_id, "Workspace id")
        ->required()
        ->check(CLI::PositiveNumber);
    auto* enable = recharge->add_flag("--enable", o->enable, "Turn auto-recharge on");
    auto* disable = recharge->add_flag("--disable", o->disable, "Turn auto-recharge off");
    enable->excludes(disable);
    recharge->add_option("--below", o->below, "Recharge when the balance falls under this");
    recharge->add_option("--amount", o->amount, "Credits added per recharge");
    recharge->callback([&context, o] {
        if (o->enable == o->disable) throw UsageError("give exactly one of --enable or --disable");
        const long long below = credits_option(o->below, "--below", true);
        const long long amount = credits_option(o->amount, "--amount", !o->enable);
        context.mysql().run([&](db::Session& s) {
            require_workspace(s, o->workspace_id);
            billing::Wallet::set_auto_recharge(s, o->workspace_id, o->enable, below, amount);
        });
        std::cout << "auto-recharge " << (o->enable ? "enabled" : "disabled") << " for workspace "
                  << o->workspace_id << '\n';
    });
}

void add_wallet_show(CLI::App& group, Context& context) {
    auto* show = group.add_subcommand("show", "Show a workspace's balances and settings");
    auto workspace_id = std::make_shared<long long>(0);
    show->add_option("--workspace", *workspace_id, "Workspace id")
        ->required()
        ->check(CLI::PositiveNumber);
    show->callback([&context, workspace_id] {
        const auto w = context.mysql().run([&](db::Session& s) {
            require_workspace(s, *workspace_id);
            return billing::Wallet::state(s, *workspace_id);
        });
        using workspace::format_credits;
        Table table({"currency", "total", "purchased", "monthly", "monthly_reset_at",
                     "auto_recharge", "below", "amount"});
        table.add({w.currency, format_credits(w.total_units()), format_credits(w.purchased_units),
                   format_credits(w.monthly_units),
                   w.monthly_reset_at ? time::format_iso8601(*w.monthly_reset_at) : "-",
                   w.auto_recharge_enabled ? "on" : "off",
                   format_credits(w.auto_recharge_below_units),
                   format_credits(w.auto_recharge_amount_units)});
        table.print(std::cout);
    });
}

}  // namespace

void add_wallet_commands(CLI::App& app, Context& context) {
    auto* group = app.add_subcommand("wallet", "Credit wallets and set auto-recharge");
    group->require_subcommand(1);
    add_wallet_credit(*group, context);
    add_wallet_auto_recharge(*group, context);
    add_wallet_show(*group, context);
}

}  // namespace squawk::ctl
