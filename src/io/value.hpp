// io/value.hpp: one checked config value, whatever its key's type (a small header: no TOML, no JSON).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace mppnet::io {

// A checked value on its way into a struct. Integers are int64 whatever the field's width; an enum
// is the index of its name in the key's choices.
using Value =
    std::variant<bool, std::int64_t, double, std::string, std::vector<std::int64_t>, std::vector<double>>;

}  // namespace mppnet::io
