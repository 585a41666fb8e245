// An S3-compatible server for the object store tests: tests/fakes/s3 (s3rver, every SigV4
// signature checked by aws4) run by node on a loopback port, with a fresh directory and one bucket.
#pragma once

#include "common/core/fs/work_files.hpp"
#include "tests/support/process.hpp"

#include <memory>
#include <string>

namespace squawk::testing {

class FakeS3 {
  public:
    // s3rver's built-in account.
    static constexpr const char* kAccessKey = "S3RVER";
    static constexpr const char* kSecretKey = "S3RVER";

    // Installs the server's npm packages into the build tree the first time (npm ci from the
    // committed lock file), then starts it. Throws when node or npm is missing or it does not
    // start.
    explicit FakeS3(std::string bucket = "squawk-test");
    ~FakeS3();
    FakeS3(const FakeS3&) = delete;
    FakeS3& operator=(const FakeS3&) = delete;

    // http://127.0.0.1:<port>
    std::string endpoint() const;
    const std::string& bucket() const { return bucket_; }

  private:
    std::string bucket_;
    fs::ScratchDirectory data_;
    std::string log_path_;
    std::unique_ptr<ChildProcess> process_;
    int port_ = 0;
};

}  // namespace squawk::testing
