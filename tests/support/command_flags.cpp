#include "tests/support/command_flags.hpp"

#include <stdexcept>

namespace squawk::testing {

void read_int_flags(int argc, char** argv, const std::map<std::string, int*>& flags) {
    for (int i = 1; i < argc; i += 2) {
        const std::string flag = argv[i];
        const auto found = flags.find(flag);
        if (found == flags.end()) throw std::invalid_argument("unknown option " + flag);
        if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a number");
        size_t used = 0;
        const std::string value = argv[i + 1];
        try {
            *found->second = std::stoi(value, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != value.size())
            throw std::invalid_argument(flag + " needs a whole number, not " + value);
    }
}

}  // namespace squawk::testing
