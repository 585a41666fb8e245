// The generation providers a build offers, by modality and name: a task asks it for the provider
// the [generation] section chose, and configuration checks its names against it. A new modality
// brings its own interface (with a kModality) and needs no change here.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/domain/generation/modality.hpp"

#include <any>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace squawk::generation {

// No provider of that name serves that modality.
class UnknownProvider : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class ProviderRegistry {
  public:
    // Builds a provider from its own settings section ([providers.<name>]).
    template <class Interface>
    using Factory = std::function<std::unique_ptr<Interface>(const config::Config&)>;

    // Registers `name` for Interface's modality; a name taken twice is a programming error.
    template <class Interface>
    void add(std::string name, Factory<Interface> factory) {
        add_factory(Interface::kModality, std::move(name), std::move(factory));
    }

    // Throws UnknownProvider.
    template <class Interface>
    std::unique_ptr<Interface> create(std::string_view name, const config::Config& config) const {
        return std::any_cast<const Factory<Interface>&>(factory(Interface::kModality, name))(
            config);
    }

    // The provider `generation.<modality>` names; throws UnknownProvider.
    template <class Interface>
    std::unique_ptr<Interface> create_default(const config::Config& config) const {
        return create<Interface>(default_name(Interface::kModality, config), config);
    }

    bool has(Modality modality, std::string_view name) const;
    // Sorted.
    std::vector<std::string> names(Modality modality) const;

  private:
    void add_factory(Modality modality, std::string name, std::any factory);
    const std::any& factory(Modality modality, std::string_view name) const;
    static std::string default_name(Modality modality, const config::Config& config);

    std::map<std::pair<Modality, std::string>, std::any> factories_;
};

}  // namespace squawk::generation
