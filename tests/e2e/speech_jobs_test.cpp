// Speech jobs from the outside: submitted over HTTP, polled to completion, downloaded, deleted.
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace squawk::testing;

TEST_CASE("a text-to-speech job submitted over HTTP completes with a downloadable WAV file",
          "[e2e][speech]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const std::string job_id = submit_speech(stack, key, "Hello from the end to end test.");

    const auto job = wait_for_terminal_job(stack, key, job_id);
    REQUIRE(job);
    INFO(job->dump());
    REQUIRE(job->value("status", "") == "completed");
    CHECK(job->value("job_id", "") == job_id);
    const auto& result = (*job)["result"];
    const std::string media_id = result.value("media_id", "");
    CHECK_FALSE(media_id.empty());
    CHECK(result.value("duration_seconds", 0.0) > 0.0);
    CHECK(result.value("mime_type", "") == "audio/wav");

    const auto media = stack.request("GET", "/v1/media/" + media_id, nullptr, key);
    check_success_envelope(media, 200);

    const auto download =
        stack.request("GET", stack.path_of(result.value("download_url", "")), nullptr, key);
    REQUIRE(download.status == 200);
    REQUIRE(download.body.size() > 44);
    CHECK(download.body.substr(0, 4) == "RIFF");
    CHECK(download.body.substr(8, 4) == "WAVE");
    CHECK(download.header("content-type").rfind("audio/wav", 0) == 0);
}

TEST_CASE("deleting media removes its record and its file", "[e2e][speech]") {
    Stack stack;
    const auto& key = stack.tenant().live_key;
    const std::string job_id = submit_speech(stack, key, "This file is about to be deleted.");
    const auto job = wait_for_terminal_job(stack, key, job_id);
    REQUIRE(job);
    REQUIRE(job->value("status", "") == "completed");
    const std::string media_id = (*job)["result"].value("media_id", "");

    const auto stored = stack.db().run([&](squawk::db::Session& s) {
        return s.query_one("SELECT storage_path FROM media WHERE public_id = ?", {media_id});
    });
    REQUIRE(stored);
    const auto file = std::filesystem::path(stack.media_dir()) / stored->text(0);
    REQUIRE(std::filesystem::exists(file));

    const auto deleted = stack.request("DELETE", "/v1/media/" + media_id, nullptr, key);
    check_success_envelope(deleted, 200);
    CHECK(deleted.json["data"].value("deleted", false));
    CHECK_FALSE(std::filesystem::exists(file));
    CHECK(stack.count("SELECT COUNT(*) FROM media WHERE public_id = ?", {media_id}) == 0);
    check_not_found(stack.request("GET", "/v1/media/" + media_id, nullptr, key));
    check_not_found(stack.request("GET", "/v1/media/" + media_id + "/download", nullptr, key));
    check_not_found(stack.request("DELETE", "/v1/media/" + media_id, nullptr, key));
}

TEST_CASE("the job list pages through a workspace's jobs and a cancelled job never runs",
          "[e2e][jobs]") {
    Stack stack(without_worker());
    const auto& key = stack.tenant().test_key;
    std::vector<std::string> ids;
    for (int i = 0; i < 3; ++i)
        ids.push_back(submit_speech(stack, key, "Job number " + std::to_string(i)));

    const auto first = stack.request("GET", "/v1/jobs?page=1&per_page=2", nullptr, key);
    check_success_envelope(first, 200);
    CHECK(first.json["data"].size() == 2);
    CHECK(first.json["pagination"].value("total", 0) == 3);
    CHECK(first.json["pagination"].value("page", 0) == 1);
    CHECK(first.json["pagination"].value("per_page", 0) == 2);
    const auto second = stack.request("GET", "/v1/jobs?page=2&per_page=2", nullptr, key);
    check_success_envelope(second, 200);
    CHECK(second.json["data"].size() == 1);

    const auto cancelled = stack.request("POST", "/v1/jobs/" + ids[0] + "/cancel", nullptr, key);
    check_success_envelope(cancelled, 200);
    CHECK(cancelled.json["data"].value("status", "") == "cancelled");
    const auto queued = stack.request("GET", "/v1/jobs?status=queued", nullptr, key);
    check_success_envelope(queued, 200);
    CHECK(queued.json["pagination"].value("total", 0) == 2);

    stack.start(Process::worker);
    for (size_t i = 1; i < ids.size(); ++i) {
        const auto job = wait_for_terminal_job(stack, key, ids[i]);
        REQUIRE(job);
        CHECK(job->value("status", "") == "completed");
    }
    const auto still = stack.request("GET", "/v1/jobs/" + ids[0], nullptr, key);
    check_success_envelope(still, 200);
    CHECK(still.json["data"].value("status", "") == "cancelled");
    CHECK(stack.count("SELECT COUNT(*) FROM media") == 2);
}
