// Metrics: series render in the Prometheus text format, histograms count into cumulative buckets,
// and a daemon's metrics port answers GET /metrics and nothing else.
#include "common/core/metrics/metrics_server.hpp"
#include "common/core/metrics/registry.hpp"
#include "tests/support/http_client.hpp"

#include <catch2/catch.hpp>

using namespace squawk::metrics;

TEST_CASE("counters and gauges render with their help, type and escaped labels") {
    Registry registry;
    registry.counter("squawk_test_total", "Things counted.", {{"route", "/v1/a\"b"}}).inc(3);
    registry.gauge("squawk_test_depth", "Depth.", {{"pool", "generate"}}).set(7);
    const std::string text = registry.render();
    CHECK(
        text.find("# HELP squawk_test_total Things counted.\n# TYPE squawk_test_total counter\n") !=
        std::string::npos);
    CHECK(text.find("squawk_test_total{route=\"/v1/a\\\"b\"} 3\n") != std::string::npos);
    CHECK(text.find("squawk_test_depth{pool=\"generate\"} 7\n") != std::string::npos);
}

TEST_CASE("histogram buckets are cumulative and end with +Inf, sum and count") {
    Registry registry;
    auto& h = registry.histogram("squawk_test_seconds", "Durations.", {}, {0.1, 1});
    h.observe(0.05);
    h.observe(0.5);
    h.observe(5);
    const std::string text = registry.render();
    CHECK(text.find("squawk_test_seconds_bucket{le=\"0.1\"} 1\n") != std::string::npos);
    CHECK(text.find("squawk_test_seconds_bucket{le=\"1\"} 2\n") != std::string::npos);
    CHECK(text.find("squawk_test_seconds_bucket{le=\"+Inf\"} 3\n") != std::string::npos);
    CHECK(text.find("squawk_test_seconds_sum 5.55\n") != std::string::npos);
    CHECK(text.find("squawk_test_seconds_count 3\n") != std::string::npos);
}

TEST_CASE("collectors add gauges at scrape time and a failing collector is left out") {
    Registry registry;
    const auto ready = registry.add_collector([](SampleWriter& w) {
        w.gauge("squawk_test_ready", "Ready.", {{"pool", "p"}}, 4);
    });
    const auto failing =
        registry.add_collector([](SampleWriter&) { throw std::runtime_error("redis down"); });
    CHECK(registry.render().find("squawk_test_ready{pool=\"p\"} 4\n") != std::string::npos);
}

TEST_CASE("a collector is gone once its handle is") {
    Registry registry;
    {
        const auto gone = registry.add_collector(
            [](SampleWriter& w) { w.gauge("squawk_test_gone", "Gone.", {}, 1); });
        CHECK(registry.render().find("squawk_test_gone 1") != std::string::npos);
    }
    CHECK(registry.render().find("squawk_test_gone") == std::string::npos);
}

TEST_CASE("a series keeps its identity across lookups") {
    Registry registry;
    auto& first = registry.counter("squawk_test_same", "Same.", {{"a", "1"}});
    auto& again = registry.counter("squawk_test_same", "Same.", {{"a", "1"}});
    CHECK(&first == &again);
    CHECK_THROWS(registry.gauge("squawk_test_same", "Same.", {{"a", "1"}}));
}

TEST_CASE("only GET /metrics counts as a metrics request") {
    CHECK(is_metrics_request("GET /metrics HTTP/1.1\r\n"));
    CHECK(is_metrics_request("GET /metrics?x=1 HTTP/1.1\r\n"));
    CHECK_FALSE(is_metrics_request("GET /metricsx HTTP/1.1\r\n"));
    CHECK_FALSE(is_metrics_request("POST /metrics HTTP/1.1\r\n"));
    CHECK_FALSE(is_metrics_request("GET /metrics"));
}

TEST_CASE("the metrics port serves the global registry and 404 for anything else") {
    Registry::global().counter("squawk_test_served_total", "Served.").inc();
    MetricsServer server("127.0.0.1", 0);
    squawk::testing::HttpClient http("http://127.0.0.1:" + std::to_string(server.port()));
    const auto ok = http.send("GET", "/metrics", std::nullopt, {});
    CHECK(ok.status == 200);
    CHECK(ok.body.find("squawk_test_served_total 1") != std::string::npos);
    CHECK(http.send("GET", "/other", std::nullopt, {}).status == 404);
}
