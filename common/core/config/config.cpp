#include "common/core/config/config.hpp"

#include "common/core/config/section_schema.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <variant>

extern char** environ;

namespace squawk::config {

void bad_value(const std::string& path, const std::string& why) {
    throw ConfigError("config key '" + path + "': " + why);
}

long long as_integer(const Scalar& value, const std::string& path, long long lo, long long hi) {
    const auto* v = std::get_if<long long>(&value);
    if (!v) bad_value(path, "expected an integer");
    if (*v < lo || *v > hi)
        bad_value(path, "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
    return *v;
}

double as_real(const Scalar& value, const std::string& path, double lo, double hi) {
    double number;
    if (const auto* d = std::get_if<double>(&value))
        number = *d;
    else if (const auto* i = std::get_if<long long>(&value))
        number = static_cast<double>(*i);
    else
        bad_value(path, "expected a number");
    if (!(number >= lo && number <= hi)) {
        std::ostringstream range;
        range << "must be between " << lo << " and " << hi;
        bad_value(path, range.str());
    }
    return number;
}

bool as_boolean(const Scalar& value, const std::string& path) {
    const auto* v = std::get_if<bool>(&value);
    if (!v) bad_value(path, "expected true or false");
    return *v;
}

std::string as_text(const Scalar& value, const std::string& path, bool may_be_empty) {
    const auto* v = std::get_if<std::string>(&value);
    if (!v) bad_value(path, "expected a string");
    if (!may_be_empty && v->empty()) bad_value(path, "must not be empty");
    return *v;
}

std::vector<HostPort> as_host_port_list(const Scalar& value, const std::string& path) {
    const std::string list = as_text(value, path);
    if (list.empty()) return {};
    auto parsed = parse_host_port_list(list);
    if (!parsed) bad_value(path, "expected \"host:port\" items separated by commas");
    return std::move(*parsed);
}

namespace {

struct Field {
    std::string path;
    std::function<void(Config&, const Scalar&)> assign;
};

// Every key of the file with the field it sets, and the checks that run once all are read.
struct Schema {
    std::vector<Field> fields;
    std::vector<std::function<void(Config&)>> finishers;

    // Adds a module's section under `section`, setting the member `settings` of Config.
    template <class Settings>
    void add(const std::string& section, Settings Config::*settings,
             SectionSchema<Settings> schema) {
        for (auto& row : schema.rows) {
            std::string path = section + "." + row.key;
            fields.push_back(
                {path, [settings, path, assign = std::move(row.assign)](
                           Config& c, const Scalar& v) { assign(c.*settings, v, path); }});
        }
        if (schema.finish)
            finishers.push_back([settings, section, finish = std::move(schema.finish)](Config& c) {
                finish(c.*settings, section);
            });
    }
};

Schema schema() {
    Schema s;
    s.fields.push_back({"time_scale", [](Config& c, const Scalar& v) {
                            c.time_scale = as_real(v, "time_scale", 1e-6, 1000);
                        }});
    s.add("api", &Config::api, api_schema());
    s.add("mysql", &Config::mysql, mysql_schema());
    s.add("redis", &Config::redis, redis_schema());
    s.add("jobs", &Config::jobs, jobs_schema());
    s.add("workers", &Config::workers, workers_schema());
    s.add("scheduler", &Config::scheduler, scheduler_schema());
    s.add("security", &Config::security, security_schema());
    s.add("webhooks", &Config::webhooks, webhooks_schema());
    s.add("social", &Config::social, social_schema());
    s.add("media", &Config::media, media_schema());
    s.add("storage", &Config::storage, storage_schema());
    s.add("generation", &Config::generation, generation_schema());
    s.add("content_policy", &Config::content_policy, content_policy_schema());
    s.add("providers", &Config::providers, providers_schema());
    s.add("billing", &Config::billing, billing_schema());
    s.add("rate_limits", &Config::rate_limits, rate_limits_schema());
    s.add("request_log", &Config::request_log, request_log_schema());
    s.add("idempotency", &Config::idempotency, idempotency_schema());
    s.add("log", &Config::log, log_schema());
    return s;
}

std::string env_name(const std::string& path) {
    std::string name = "SQUAWK_";
    for (char ch : path) name += ch == '.' ? '_' : static_cast<char>(std::toupper(ch));
    return name;
}

Scalar from_toml(const toml::node& node, const std::string& path) {
    if (auto v = node.value_exact<int64_t>()) return static_cast<long long>(*v);
    if (auto v = node.value_exact<double>()) return *v;
    if (auto v = node.value_exact<bool>()) return *v;
    if (auto v = node.value_exact<std::string>()) return *v;
    bad_value(path, "expected a string, number or boolean");
}

// Environment values are text; the field decides what they must look like.
Scalar from_environment(const std::string& raw) {
    if (raw == "true") return true;
    if (raw == "false") return false;
    long long integer_value = 0;
    const char* end = raw.data() + raw.size();
    if (!raw.empty() && std::from_chars(raw.data(), end, integer_value).ptr == end)
        return integer_value;
    double real_value = 0;
    if (!raw.empty() && std::from_chars(raw.data(), end, real_value).ptr == end) return real_value;
    return raw;
}

void collect(const toml::table& table, const std::string& prefix,
             std::vector<std::pair<std::string, const toml::node*>>& out) {
    for (const auto& [key, node] : table) {
        const std::string path =
            prefix.empty() ? std::string(key.str()) : prefix + "." + std::string(key.str());
        if (const auto* sub = node.as_table())
            collect(*sub, path, out);
        else
            out.emplace_back(path, &node);
    }
}

}  // namespace

Config parse(const std::string& toml_text, const std::map<std::string, std::string>& environment) {
    toml::table document;
    try {
        document = toml::parse(toml_text);
    } catch (const toml::parse_error& e) {
        std::ostringstream message;
        message << "config is not valid TOML: " << e.description() << " (line "
                << e.source().begin.line << ")";
        throw ConfigError(message.str());
    }
    const auto [fields, finishers] = schema();
    std::vector<std::pair<std::string, const toml::node*>> entries;
    collect(document, "", entries);

    Config config;
    for (const auto& entry : entries) {
        const std::string& path = entry.first;
        auto it = std::find_if(fields.begin(), fields.end(),
                               [&](const Field& f) { return f.path == path; });
        if (it == fields.end()) throw ConfigError("unknown config key '" + path + "'");
        it->assign(config, from_toml(*entry.second, path));
    }
    for (const auto& field : fields) {
        const auto found = environment.find(env_name(field.path));
        if (found != environment.end()) {
            try {
                field.assign(config, from_environment(found->second));
            } catch (const ConfigError& e) {
                throw ConfigError(std::string(e.what()) + " (from " + found->first + ")");
            }
        }
    }
    for (const auto& finish : finishers) finish(config);
    return config;
}

Config load(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw ConfigError("cannot read config file '" + path + "'");
    std::ostringstream text;
    text << in.rdbuf();
    std::map<std::string, std::string> environment;
    for (char** e = environ; *e; ++e) {
        std::string entry = *e;
        const auto eq = entry.find('=');
        if (eq != std::string::npos && entry.starts_with("SQUAWK_"))
            environment.emplace(entry.substr(0, eq), entry.substr(eq + 1));
    }
    return parse(text.str(), environment);
}

std::string resolve_path(const std::string& from_command_line) {
    if (!from_command_line.empty()) return from_command_line;
    if (const char* env = std::getenv("SQUAWK_CONFIG"); env && *env) return env;
    return "config/squawk.toml";
}

}  // namespace squawk::config
