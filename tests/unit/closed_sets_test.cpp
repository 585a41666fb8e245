// Each closed set (statuses, stages, target error codes) has one name table: its names are unique,
// parse back to their values, render as JSON strings, and are the values the OpenAPI document
// lists for it, so the document and the code cannot drift.
#include "common/domain/generation/creation.hpp"
#include "common/domain/generation/image_provider.hpp"
#include "common/domain/jobs/job_status.hpp"
#include "common/domain/social/account_status.hpp"
#include "common/domain/social/post_status.hpp"
#include "common/domain/social/target_error.hpp"
#include "common/domain/webhooks/statuses.hpp"
#include "tests/unit/openapi_json.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <string>

using namespace squawk;
using generation::CreationKind;
using generation::ImageFormat;
using jobs::JobStatus;
using social::AccountStatus;
using social::PostStatus;
using social::PublishStage;
using social::TargetErrorCode;
using social::TargetStatus;
using webhooks::DeliveryStatus;
using webhooks::EndpointStatus;

namespace {

// The set's names, less the values clients never see.
template <WireEnum E>
std::set<std::string> names_shown(std::initializer_list<E> internal = {}) {
    std::set<std::string> out;
    for (const E value : all_values<E>())
        if (std::find(internal.begin(), internal.end(), value) == internal.end())
            out.insert(name_of(value));
    return out;
}

// The strings of a schema's `enum` (a nullable one lists null too, which is no name).
std::set<std::string> documented(const nlohmann::json& schema) {
    std::set<std::string> out;
    for (const auto& value : schema.at("enum"))
        if (value.is_string()) out.insert(value.get<std::string>());
    return out;
}

const nlohmann::json& query_schema(const std::string& path, const std::string& name) {
    for (const auto& p : testing::openapi_json().at("paths").at(path).at("get").at("parameters"))
        if (p.value("name", "") == name) return p.at("schema");
    throw std::logic_error("no query parameter " + name + " on " + path);
}

}  // namespace

TEMPLATE_TEST_CASE("a closed set's names are unique and each parses back to its value", "",
                   PostStatus, TargetStatus, PublishStage, AccountStatus, JobStatus, DeliveryStatus,
                   EndpointStatus, TargetErrorCode, CreationKind, ImageFormat) {
    std::set<std::string> seen;
    for (const TestType value : all_values<TestType>()) {
        const std::string name = name_of(value);
        INFO(name);
        CHECK(seen.insert(name).second);
        CHECK(parse_name<TestType>(name) == value);
        CHECK(nlohmann::json(value) == name);
    }
}

TEST_CASE("a name outside a closed set parses to nothing, and as a stored value it throws") {
    CHECK_FALSE(parse_name<PostStatus>("sleeping"));
    CHECK_FALSE(parse_name<PostStatus>("Published"));
    CHECK_THROWS(stored_value<JobStatus>("sleeping"));
    CHECK(stored_value<JobStatus>("running") == JobStatus::running);
}

TEST_CASE("post and target statuses and publish stages are the ones the post schema lists") {
    const auto& post = testing::openapi_schema("SocialPost").at("properties");
    CHECK(names_shown<PostStatus>() == documented(post.at("status")));
    CHECK(names_shown<PostStatus>() == documented(query_schema("/social/posts", "status")));
    CHECK(names_shown<TargetStatus>() ==
          documented(post.at("targets").at("items").at("properties").at("status")));
    CHECK(names_shown<PublishStage>() == documented(post.at("publish_stage")));
}

TEST_CASE("job statuses are the ones the JobStatus schema lists, less the internal wait") {
    // `scheduled` is the wait of a scheduled post's publish job before its first run.
    CHECK(names_shown<JobStatus>({JobStatus::scheduled}) ==
          documented(testing::openapi_schema("JobStatus")));
}

TEST_CASE("delivery and endpoint statuses are the ones the webhook schemas list") {
    CHECK(names_shown<DeliveryStatus>() ==
          documented(testing::openapi_schema("WebhookDeliveryStatus")));
    // Deleted endpoints are kept for the delivery log and never shown.
    CHECK(names_shown<EndpointStatus>({EndpointStatus::deleted}) ==
          documented(testing::openapi_schema("WebhookEndpoint").at("properties").at("status")));
    CHECK(names_shown<EndpointStatus>({EndpointStatus::failing, EndpointStatus::deleted}) ==
          documented(testing::openapi_schema("WebhookUpdate").at("properties").at("status")));
    CHECK(
        documented(testing::openapi_schema("WebhookReplayResult").at("properties").at("status")) ==
        std::set<std::string>{name_of(DeliveryStatus::pending), name_of(DeliveryStatus::held)});
}

TEST_CASE("creation kinds and image formats are the ones the generation schemas list") {
    CHECK(names_shown<CreationKind>() == documented(testing::openapi_schema("CreationKind")));
    CHECK(names_shown<ImageFormat>() ==
          documented(testing::openapi_schema("ImageGenerate").at("properties").at("format")));
}

TEST_CASE("account statuses shown are the ones the account schema lists") {
    // A disconnected account is never listed or found.
    CHECK(names_shown<AccountStatus>({AccountStatus::disconnected}) ==
          documented(testing::openapi_schema("SocialAccount").at("properties").at("status")));
}

TEST_CASE("a target error carries its code's wire name, its message and its detail") {
    const auto error = social::target_error(TargetErrorCode::posting_cap_reached, "Cap reached.",
                                            {{"allowed", 3}});
    CHECK(error == nlohmann::json{{"code", "POSTING_CAP_REACHED"},
                                  {"message", "Cap reached."},
                                  {"detail", {{"allowed", 3}}}});
    CHECK(social::target_error(TargetErrorCode::publish_failed, "x")["detail"].is_null());
}
