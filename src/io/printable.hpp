// io/printable.hpp: text from outside (paths, arguments, file contents) made safe to print and to record.
#pragma once

#include <string>
#include <string_view>

namespace mppnet::io {

// True when `text` is well-formed UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF).
bool is_valid_utf8(std::string_view text);

// `text` with every control character (but a newline when `keep_newlines`) and every byte that is not part
// of well-formed UTF-8 written as \xNN, so that a file name cannot move the terminal's cursor, forge a
// line of output or break a JSON file.
std::string printable(std::string_view text, bool keep_newlines = false);

}  // namespace mppnet::io
