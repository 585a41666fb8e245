#include "tests/support/galera_cluster.hpp"

#include "tests/support/repo_scripts.hpp"

#include <stdexcept>

namespace squawk::testing {

GaleraCluster::GaleraCluster() : dir_("squawk-galera-") {
    script({"start"});
    const auto env = read_env_file((dir_ / "galera.env").string());
    password_ = env.at("SQUAWK_GALERA_PASSWORD");
    auto hosts = config::parse_host_port_list(env.at("SQUAWK_GALERA_HOSTS"));
    if (!hosts || hosts->size() != 3) throw std::runtime_error("galera.sh wrote no node list");
    nodes_ = std::move(*hosts);
}

GaleraCluster::~GaleraCluster() {
    try {
        script({"stop"});
    } catch (...) {
        // The scratch directory goes anyway; a node left running dies with its files.
    }
}

void GaleraCluster::script(const std::vector<std::string>& args) {
    std::vector<std::string> full = {args.front(), dir_.path().string()};
    full.insert(full.end(), args.begin() + 1, args.end());
    run_script("galera.sh", full);
}

config::MysqlSettings GaleraCluster::settings() const {
    config::MysqlSettings s;
    s.hosts = nodes_;
    s.user = "squawk";
    s.password = password_;
    s.database = "squawk";
    s.connect_timeout_ms = 1000;
    return s;
}

config::MysqlSettings GaleraCluster::node_settings(int n) const {
    auto s = settings();
    s.hosts = {nodes_.at(static_cast<size_t>(n - 1))};
    return s;
}

void GaleraCluster::kill_node(int n) {
    script({"kill-node", std::to_string(n)});
}

void GaleraCluster::stop_node(int n) {
    script({"stop-node", std::to_string(n)});
}

void GaleraCluster::start_node(int n) {
    script({"start-node", std::to_string(n)});
}

}  // namespace squawk::testing
