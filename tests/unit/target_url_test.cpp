#include "common/core/net/target_url.hpp"

#include <catch2/catch.hpp>

using namespace squawk::net;

namespace {
std::string ipv4(const std::string& host) {
    auto a = parse_numeric_ipv4(host);
    return a ? a->to_string() : "name";
}
}  // namespace

TEST_CASE("numeric IPv4 hosts are read in every spelling resolvers accept") {
    CHECK(ipv4("127.0.0.1") == "127.0.0.1");
    CHECK(ipv4("2130706433") == "127.0.0.1");
    CHECK(ipv4("0x7f000001") == "127.0.0.1");
    CHECK(ipv4("0x7f.1") == "127.0.0.1");
    CHECK(ipv4("0177.0.0.1") == "127.0.0.1");
    CHECK(ipv4("127.1") == "127.0.0.1");
    CHECK(ipv4("10.1.65535") == "10.1.255.255");
    CHECK(ipv4("127.0.0.1.") == "127.0.0.1");
    CHECK(ipv4("example.com") == "name");
    CHECK(ipv4("0x1.example.com") == "name");
    CHECK_THROWS_AS(parse_numeric_ipv4("256.0.0.1"), TargetRefused);
    CHECK_THROWS_AS(parse_numeric_ipv4("1.2.3.4.5"), TargetRefused);
    CHECK_THROWS_AS(parse_numeric_ipv4("4294967296"), TargetRefused);
    CHECK_THROWS_AS(parse_numeric_ipv4("example.0x10"), TargetRefused);
}

TEST_CASE(
    "loopback, private, link-local, CGNAT, metadata and other special addresses are not "
    "public") {
    for (const char* host :
         {"127.0.0.1", "10.2.3.4", "172.31.0.1", "192.168.0.1", "100.64.1.1", "169.254.169.254",
          "0.0.0.0", "224.1.1.1", "240.0.0.1", "255.255.255.255", "198.18.0.1", "192.0.2.1"}) {
        INFO(host);
        CHECK(non_public_reason(*parse_numeric_ipv4(host)));
    }
    for (const char* host : {"8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "100.128.0.1"}) {
        INFO(host);
        CHECK_FALSE(non_public_reason(*parse_numeric_ipv4(host)));
    }
    CHECK(*non_public_reason(*parse_numeric_ipv4("169.254.169.254")) == "a cloud metadata address");
}

TEST_CASE("IPv6 targets are classified, including IPv4-mapped, NAT64 and 6to4 forms") {
    for (const char* url :
         {"https://[::1]/", "https://[::]/", "https://[::ffff:127.0.0.1]/",
          "https://[::ffff:a00:1]/", "https://[fe80::1]/", "https://[fd12::1]/",
          "https://[ff02::1]/", "https://[64:ff9b::7f00:1]/", "https://[2002:a00:1::]/",
          "https://[fd00:ec2::254]/", "https://[2001:db8::1]/"}) {
        INFO(url);
        CHECK_THROWS_AS(check_target(url, false), TargetRefused);
    }
    CHECK(check_target("https://[2606:4700:4700::1111]/", false).address.to_string() ==
          "2606:4700:4700::1111");
    CHECK(check_target("https://[::ffff:8.8.8.8]:8443/x", false).url.port == 8443);
}

TEST_CASE("a target URL is parsed into scheme, host, port and target") {
    const auto u = parse_url("HTTPS://Hooks.Example.COM:8443/in?x=1");
    CHECK(u.scheme == "https");
    CHECK(u.host == "hooks.example.com");
    CHECK(u.port == 8443);
    CHECK(u.target == "/in?x=1");
    CHECK(parse_url("https://example.com").port == 443);
    CHECK(parse_url("https://example.com").target == "/");
    for (const char* bad :
         {"", "example.com", "https://", "https://user@example.com/", "https://example.com/#x",
          "https://exa mple.com/", "https://ex\\a.com/", "https://example.com:0/",
          "https://example.com:70000/", "https://example.com:/", "https://[::1/",
          "https://%31.com/", "gopher://example.com/"}) {
        INFO(bad);
        CHECK_THROWS_AS(parse_url(bad), TargetRefused);
    }
}

TEST_CASE("only the development setting allows plain http and private addresses") {
    CHECK_THROWS_AS(check_target("http://8.8.8.8/", false), TargetRefused);
    CHECK_THROWS_AS(check_target("https://127.0.0.1/", false), TargetRefused);
    CHECK_THROWS_AS(check_target("https://localhost/", false), TargetRefused);
    CHECK(check_target("http://127.0.0.1:9/", true).address.to_string() == "127.0.0.1");
    CHECK(check_target("https://0x7f.1/", true).address.to_string() == "127.0.0.1");
}

TEST_CASE("two URLs share an origin only with the same scheme, host and port") {
    const std::string base = "https://www.googleapis.com";
    CHECK(same_origin(base, "https://www.googleapis.com/upload/youtube/v3/videos?upload_id=x"));
    CHECK(same_origin(base, "HTTPS://WWW.GoogleAPIs.com:443/upload"));
    CHECK(same_origin("http://127.0.0.1:8080/youtube", "http://127.0.0.1:8080/other?x=1"));
    CHECK_FALSE(same_origin(base, "https://uploads.example.net/upload"));
    CHECK_FALSE(same_origin(base, "https://www.googleapis.com.example.net/upload"));
    CHECK_FALSE(same_origin(base, "http://www.googleapis.com/upload"));
    CHECK_FALSE(same_origin(base, "https://www.googleapis.com:8443/upload"));
    CHECK_FALSE(same_origin("http://127.0.0.1:8080/youtube", "http://localhost:8080/youtube"));
    CHECK_FALSE(same_origin(base, "https://user@www.googleapis.com/upload"));
    CHECK_FALSE(same_origin(base, "/upload/youtube/v3/videos"));
    CHECK_FALSE(same_origin(base, ""));
}
