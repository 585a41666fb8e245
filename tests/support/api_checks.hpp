// What the end-to-end tests do again and again: submit speech jobs, poll them to the end, and check
// the spec's response envelope (success, data/error, meta.request_id, X-Request-Id).
#pragma once

#include "tests/support/stack.hpp"

#include <chrono>
#include <optional>
#include <string>

namespace squawk::testing {

// POSTs /v1/audio/text-to-speech and returns the job id of the 202 answer (checked).
std::string submit_speech(Stack& stack, const std::string& key, const std::string& text);

// Polls GET /v1/jobs/{id} until the job is terminal; its `data`, or nothing at the deadline.
std::optional<nlohmann::json> wait_for_terminal_job(
    Stack& stack, const std::string& key, const std::string& job_id,
    std::chrono::milliseconds timeout = std::chrono::seconds(30));

// Checks a success envelope with `status`.
void check_success_envelope(const HttpResponse& response, long status);
// Checks an error envelope with exactly `status` and `code`.
void check_error_envelope(const HttpResponse& response, long status, const std::string& code);
// Checks a 404 RESOURCE_NOT_FOUND envelope.
void check_not_found(const HttpResponse& response);

// POSTs `body` to /v1/<family>/generate, waits until its job completed (checked) and returns
// GET /v1/<family>/{id}'s data.
nlohmann::json completed_creation(Stack& stack, const std::string& key, const std::string& family,
                                  const nlohmann::json& body,
                                  std::chrono::milliseconds timeout = std::chrono::seconds(60));
// balance.total of GET /v1/me/balance (checked 200), e.g. "1.0000".
std::string balance_total(Stack& stack, const std::string& key);
// The bytes of GET /v1/media/{id}/download (checked 200).
std::string downloaded_media(Stack& stack, const std::string& key, const std::string& media_id);

}  // namespace squawk::testing
