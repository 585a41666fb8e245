#include "common/core/error/api_error.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace squawk;

TEST_CASE("every error code of spec section 7 maps to its HTTP status") {
    CHECK(error_info(ErrorCode::InvalidRequest).http_status == 400);
    CHECK(error_info(ErrorCode::InvalidApiKey).http_status == 401);
    CHECK(error_info(ErrorCode::InsufficientBalance).http_status == 402);
    CHECK(error_info(ErrorCode::InsufficientScope).http_status == 403);
    CHECK(error_info(ErrorCode::NotFound).http_status == 404);
    CHECK(std::string(error_info(ErrorCode::NotFound).code) == "RESOURCE_NOT_FOUND");
    CHECK(error_info(ErrorCode::IdempotencyConflict).http_status == 409);
    CHECK(error_info(ErrorCode::ValidationError).http_status == 422);
    CHECK(error_info(ErrorCode::RateLimitExceeded).http_status == 429);
    CHECK(error_info(ErrorCode::InternalError).http_status == 500);
    CHECK(error_info(ErrorCode::SandboxUnavailable).http_status == 503);
}

TEST_CASE("validation errors carry the offending fields") {
    const auto e = validation_error({{"text", "is required"}});
    CHECK(e.info().http_status == 422);
    CHECK(e.details()["fields"]["text"] == "is required");
}

TEST_CASE("an error without a message uses the table's message") {
    const ApiError e(ErrorCode::NotFound);
    CHECK(std::string(e.what()) == error_info(ErrorCode::NotFound).message);
}

TEST_CASE("every code has its own wire name and an HTTP error status") {
    std::set<std::string> names;
    for (const auto& entry : error_table()) {
        INFO(entry.info.code);
        CHECK(names.insert(entry.info.code).second);
        CHECK(entry.info.http_status >= 400);
        CHECK(entry.info.http_status < 600);
        CHECK(std::string(entry.info.message).size() > 0);
        CHECK(&error_info(entry.code) == &entry.info);
    }
}

TEST_CASE("server faults are retryable and refusals of the request as sent are not") {
    for (const auto& entry : error_table()) {
        INFO(entry.info.code);
        if (entry.info.http_status >= 500) CHECK(entry.info.retryable);
        if (entry.info.http_status == 400 || entry.info.http_status == 401 ||
            entry.info.http_status == 404)
            CHECK_FALSE(entry.info.retryable);
    }
}
