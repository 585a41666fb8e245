// A workspace's own content policy: which patterns it may store, and how its words and patterns
// refuse text beside the global lists.
#include "common/domain/generation/content_policy.hpp"

#include <catch2/catch.hpp>

using namespace squawk::generation;

TEST_CASE("a workspace pattern must compile, be short and use no back-references") {
    CHECK_FALSE(pattern_problem("secret\\s+plan"));
    CHECK_FALSE(pattern_problem("^(buy|sell) now$"));
    CHECK(pattern_problem(""));
    CHECK(pattern_problem("(unclosed"));
    CHECK(pattern_problem("[z-a]"));
    CHECK(pattern_problem("a{2,1}"));
    CHECK(pattern_problem("(a)\\1")->find("valid pattern") != std::string::npos);
    CHECK(pattern_problem(std::string(kMaxPolicyPatternChars + 1, 'a')));
    CHECK_FALSE(pattern_problem(std::string(kMaxPolicyPatternChars, 'a')));
}

TEST_CASE("a workspace's words match whole words and its patterns anywhere, ignoring case") {
    const ContentPolicy policy(ContentPolicyLists{{"Forbidden", "two words"}, {"secret\\s+plan"}});
    CHECK(policy.violation("This is FORBIDDEN here") == "forbidden");
    CHECK_FALSE(policy.violation("unforbiddenly fine"));
    CHECK(policy.violation("say two words") == "two words");
    CHECK(policy.violation("the Secret   Plan") == "secret\\s+plan");
    CHECK_FALSE(policy.violation("a plan, not secret"));
    CHECK_FALSE(policy.empty());
    CHECK(ContentPolicy(ContentPolicyLists{}).empty());
}

TEST_CASE("a nested quantifier in a workspace pattern does not backtrack without end") {
    const ContentPolicy policy(ContentPolicyLists{{}, {"(a|aa)*c"}});
    CHECK_FALSE(policy.violation(std::string(200, 'a')));
}
