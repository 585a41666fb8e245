// Objects as files under one root directory (the data directory's media folder): each key is its
// relative path. Files appear by rename, so a reader never sees one half written.
#pragma once

#include "common/core/storage/object_store.hpp"

namespace squawk::storage {

class LocalObjectStore final : public ObjectStore {
  public:
    // Creates `root` if it is missing.
    explicit LocalObjectStore(std::filesystem::path root);

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

    const std::filesystem::path& root() const { return root_; }

  private:
    std::filesystem::path path_of(std::string_view key) const;

    std::filesystem::path root_;
};

}  // namespace squawk::storage
