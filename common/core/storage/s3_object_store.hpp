// Objects in a bucket of any S3-compatible store (AWS S3, MinIO, Ceph, R2), spoken to over its REST
// API with requests signed here (sigv4.hpp). Uploads and downloads stream from and to disk.
#pragma once

#include "common/core/storage/object_store.hpp"
#include "common/core/storage/sigv4.hpp"

#include <chrono>
#include <string>

namespace squawk::http {
struct Response;
struct FileBodies;
}  // namespace squawk::http

namespace squawk::storage {

struct S3Config {
    // Scheme and authority only: "https://s3.eu-west-1.amazonaws.com", "http://127.0.0.1:9000".
    std::string endpoint;
    std::string region = "us-east-1";
    std::string bucket;
    std::string access_key;
    std::string secret_key;
    // {endpoint}/{bucket}/{key} when true (MinIO and most self-hosted stores); otherwise
    // {bucket}.{endpoint host}/{key}.
    bool path_style = true;
    // Limit to connect and to wait without progress; small requests get it as a total.
    std::chrono::milliseconds timeout{30000};
};

// "http" or "https" and the authority of an endpoint URL; throws std::invalid_argument for any
// other form (a path, a query, user info, no host).
struct Endpoint {
    std::string scheme;
    std::string authority;
};
Endpoint parse_endpoint(std::string_view endpoint);

class S3ObjectStore final : public ObjectStore {
  public:
    // Throws std::invalid_argument when the endpoint or the bucket name is not usable.
    explicit S3ObjectStore(S3Config config);

    void put_file(std::string_view key, const std::filesystem::path& local_file,
                  std::string_view content_type) override;
    void fetch_to_file(std::string_view key, const std::filesystem::path& destination) override;
    void remove(std::string_view key) override;
    void move(std::string_view from, std::string_view to) override;
    std::optional<std::uint64_t> size(std::string_view key) override;
    std::optional<std::string> presign_put(std::string_view key, std::string_view content_type,
                                           std::chrono::seconds ttl) override;
    std::optional<std::string> presign_get(std::string_view key, std::chrono::seconds ttl,
                                           const ResponseOverrides& overrides) override;
    std::optional<std::filesystem::path> local_path(std::string_view key) const override;

  private:
    // The request for `key` (validated), without payload hash or extra headers.
    sigv4::Request object_request(std::string_view method, std::string_view key) const;
    std::string url_of(const sigv4::Request& request, std::string_view query) const;
    http::Response send(const sigv4::Request& request, const http::FileBodies& files) const;

    S3Config config_;
    Endpoint endpoint_;
    sigv4::Signer signer_;
};

}  // namespace squawk::storage
