// The command lines of the test programs that take numbers (the chaos runs): `--name N` pairs.
#pragma once

#include <map>
#include <string>

namespace squawk::testing {

// Reads each `--name N` into the integer `flags` names; throws std::invalid_argument for a flag
// it does not name or one without a whole number after it.
void read_int_flags(int argc, char** argv, const std::map<std::string, int*>& flags);

}  // namespace squawk::testing
