// Prometheus metrics of one process: labelled counters, gauges and histograms kept in memory and
// rendered in the text exposition format for GET /metrics. Updates are lock-free after the first
// lookup of a series; collectors add values that are read only at scrape time (queue depths).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace squawk::metrics {

using Labels = std::vector<std::pair<std::string, std::string>>;

class Counter {
  public:
    void inc(long long by = 1) { value_.fetch_add(by, std::memory_order_relaxed); }
    long long value() const { return value_.load(std::memory_order_relaxed); }

  private:
    std::atomic<long long> value_{0};
};

class Gauge {
  public:
    void set(double v) { value_.store(v, std::memory_order_relaxed); }
    void add(double by);
    double value() const { return value_.load(std::memory_order_relaxed); }

  private:
    std::atomic<double> value_{0};
};

class Histogram {
  public:
    explicit Histogram(std::vector<double> upper_bounds);
    void observe(double value);
    // Cumulative counts per bucket (the last is +Inf), the sum and the count.
    std::vector<long long> buckets() const;
    double sum() const { return sum_.load(std::memory_order_relaxed); }
    const std::vector<double>& upper_bounds() const { return bounds_; }

  private:
    std::vector<double> bounds_;
    std::unique_ptr<std::atomic<long long>[]> counts_;  // one per bound, plus +Inf
    std::atomic<double> sum_{0};
};

// Seconds, from a fast API answer to a slow delivery.
std::vector<double> latency_buckets();

// Receives values computed at scrape time.
class SampleWriter {
  public:
    virtual ~SampleWriter() = default;
    virtual void gauge(const std::string& name, const std::string& help, const Labels& labels,
                       double value) = 0;
    // A cumulative count kept elsewhere (e.g. in Redis); `name` ends in _total.
    virtual void counter(const std::string& name, const std::string& help, const Labels& labels,
                         double value) = 0;
};

class Registry;

// Keeps a collector registered; destroying it unregisters the collector, so an object may export
// its own state and go away safely.
class CollectorHandle {
  public:
    CollectorHandle() = default;
    CollectorHandle(Registry* registry, long long id) : registry_(registry), id_(id) {}
    CollectorHandle(CollectorHandle&& other) noexcept;
    CollectorHandle& operator=(CollectorHandle&& other) noexcept;
    ~CollectorHandle();

  private:
    Registry* registry_ = nullptr;
    long long id_ = 0;
};

class Registry {
  public:
    // The process's registry; every part of a daemon records into it.
    static Registry& global();

    // The series named `name` with `labels`, created on first use. References stay valid for the
    // life of the registry, so hot paths may keep them.
    Counter& counter(const std::string& name, const std::string& help, const Labels& labels = {});
    Gauge& gauge(const std::string& name, const std::string& help, const Labels& labels = {});
    Histogram& histogram(const std::string& name, const std::string& help,
                         const Labels& labels = {},
                         const std::vector<double>& upper_bounds = latency_buckets());

    // Collectors of the process's lifetime may drop the handle (it then stays registered only
    // until the handle dies); keep it for as long as the collector's captures live.
    [[nodiscard]] CollectorHandle add_collector(std::function<void(SampleWriter&)> collector);

    // The text exposition format (version 0.0.4).
    std::string render() const;

  private:
    friend class CollectorHandle;
    void remove_collector(long long id);

    enum class Kind { counter, gauge, histogram };
    struct Family {
        Kind kind;
        std::string help;
        std::map<Labels, std::unique_ptr<Counter>> counters;
        std::map<Labels, std::unique_ptr<Gauge>> gauges;
        std::map<Labels, std::unique_ptr<Histogram>> histograms;
    };
    Family& family(const std::string& name, const std::string& help, Kind kind);

    mutable std::mutex mutex_;
    std::map<std::string, Family> families_;
    // Held while collectors run, so a collector is never removed in the middle of a scrape.
    mutable std::mutex collect_mutex_;
    std::map<long long, std::function<void(SampleWriter&)>> collectors_;
    long long next_collector_ = 1;
};

}  // namespace squawk::metrics
