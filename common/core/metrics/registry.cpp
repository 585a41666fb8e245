#include "common/core/metrics/registry.hpp"

#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace squawk::metrics {
namespace {

// Label values are escaped as the exposition format requires: backslash, quote and newline.
std::string escape(const std::string& value) {
    std::string out;
    for (char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

std::string format_labels(const Labels& labels, const std::string& extra_name = {},
                          const std::string& extra_value = {}) {
    if (labels.empty() && extra_name.empty()) return "";
    std::string out = "{";
    for (const auto& [name, value] : labels) {
        if (out.size() > 1) out += ",";
        out += name + "=\"" + escape(value) + "\"";
    }
    if (!extra_name.empty()) {
        if (out.size() > 1) out += ",";
        out += extra_name + "=\"" + extra_value + "\"";
    }
    return out + "}";
}

std::string format_number(double value) {
    if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
    std::ostringstream out;
    out.precision(12);
    out << value;
    return out.str();
}

void add_atomic(std::atomic<double>& target, double by) {
    double current = target.load(std::memory_order_relaxed);
    while (!target.compare_exchange_weak(current, current + by, std::memory_order_relaxed)) {
    }
}

class TextWriter final : public SampleWriter {
  public:
    explicit TextWriter(std::ostringstream& out) : out_(out) {}
    void gauge(const std::string& name, const std::string& help, const Labels& labels,
               double value) override {
        sample(name, help, "gauge", labels, value);
    }
    void counter(const std::string& name, const std::string& help, const Labels& labels,
                 double value) override {
        sample(name, help, "counter", labels, value);
    }

  private:
    void sample(const std::string& name, const std::string& help, const char* type,
                const Labels& labels, double value) {
        if (announced_.insert(name).second)
            out_ << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
        out_ << name << format_labels(labels) << " " << format_number(value) << "\n";
    }

    std::ostringstream& out_;
    std::set<std::string> announced_;
};

}  // namespace

void Gauge::add(double by) {
    add_atomic(value_, by);
}

Histogram::Histogram(std::vector<double> upper_bounds)
    : bounds_(std::move(upper_bounds)), counts_(new std::atomic<long long>[bounds_.size() + 1]) {
    for (size_t i = 0; i <= bounds_.size(); ++i) counts_[i] = 0;
}

void Histogram::observe(double value) {
    size_t i = 0;
    while (i < bounds_.size() && value > bounds_[i]) ++i;
    counts_[i].fetch_add(1, std::memory_order_relaxed);
    add_atomic(sum_, value);
}

std::vector<long long> Histogram::buckets() const {
    std::vector<long long> cumulative;
    long long running = 0;
    for (size_t i = 0; i <= bounds_.size(); ++i) {
        running += counts_[i].load(std::memory_order_relaxed);
        cumulative.push_back(running);
    }
    return cumulative;
}

std::vector<double> latency_buckets() {
    return {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};
}

Registry& Registry::global() {
    static Registry registry;
    return registry;
}

Registry::Family& Registry::family(const std::string& name, const std::string& help, Kind kind) {
    auto [it, inserted] = families_.try_emplace(name);
    if (inserted) {
        it->second.kind = kind;
        it->second.help = help;
    } else if (it->second.kind != kind) {
        throw std::logic_error("metric " + name + " registered with two types");
    }
    return it->second;
}

Counter& Registry::counter(const std::string& name, const std::string& help, const Labels& labels) {
    std::lock_guard lock(mutex_);
    auto& slot = family(name, help, Kind::counter).counters[labels];
    if (!slot) slot = std::make_unique<Counter>();
    return *slot;
}

Gauge& Registry::gauge(const std::string& name, const std::string& help, const Labels& labels) {
    std::lock_guard lock(mutex_);
    auto& slot = family(name, help, Kind::gauge).gauges[labels];
    if (!slot) slot = std::make_unique<Gauge>();
    return *slot;
}

Histogram& Registry::histogram(const std::string& name, const std::string& help,
                               const Labels& labels, const std::vector<double>& upper_bounds) {
    std::lock_guard lock(mutex_);
    auto& slot = family(name, help, Kind::histogram).histograms[labels];
    if (!slot) slot = std::make_unique<Histogram>(upper_bounds);
    return *slot;
}

CollectorHandle::CollectorHandle(CollectorHandle&& other) noexcept
    : registry_(std::exchange(other.registry_, nullptr)), id_(other.id_) {}

CollectorHandle& CollectorHandle::operator=(CollectorHandle&& other) noexcept {
    if (this != &other) {
        if (registry_) registry_->remove_collector(id_);
        registry_ = std::exchange(other.registry_, nullptr);
        id_ = other.id_;
    }
    return *this;
}

CollectorHandle::~CollectorHandle() {
    if (registry_) registry_->remove_collector(id_);
}

CollectorHandle Registry::add_collector(std::function<void(SampleWriter&)> collector) {
    std::lock_guard collecting(collect_mutex_);
    const long long id = next_collector_++;
    collectors_.emplace(id, std::move(collector));
    return CollectorHandle(this, id);
}

void Registry::remove_collector(long long id) {
    std::lock_guard collecting(collect_mutex_);
    collectors_.erase(id);
}

std::string Registry::render() const {
    std::ostringstream out;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [name, f] : families_) {
            const char* type = f.kind == Kind::counter ? "counter"
                               : f.kind == Kind::gauge ? "gauge"
                                                       : "histogram";
            out << "# HELP " << name << " " << f.help << "\n# TYPE " << name << " " << type << "\n";
            for (const auto& [labels, c] : f.counters)
                out << name << format_labels(labels) << " " << c->value() << "\n";
            for (const auto& [labels, g] : f.gauges)
                out << name << format_labels(labels) << " " << format_number(g->value()) << "\n";
            for (const auto& [labels, h] : f.histograms) {
                const auto counts = h->buckets();
                const auto& bounds = h->upper_bounds();
                for (size_t i = 0; i < counts.size(); ++i) {
                    const std::string le =
                        i < bounds.size() ? format_number(bounds[i]) : std::string("+Inf");
                    out << name << "_bucket" << format_labels(labels, "le", le) << " " << counts[i]
                        << "\n";
                }
                out << name << "_sum" << format_labels(labels) << " " << format_number(h->sum())
                    << "\n"
                    << name << "_count" << format_labels(labels) << " " << counts.back() << "\n";
            }
        }
    }
    // Collectors may block (Redis); they run outside the series lock so recording never waits.
    std::lock_guard collecting(collect_mutex_);
    TextWriter writer(out);
    for (const auto& [id, collect] : collectors_) {
        try {
            collect(writer);
        } catch (const std::exception&) {
            // A dependency that is down leaves its gauges out of this scrape.
        }
    }
    return out.str();
}

}  // namespace squawk::metrics
