// machines/cm1/config.hpp: the declared keys of a CM-1/CM-2 routing run and its loader.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "io/config_loader.hpp"
#include "io/key_table.hpp"
#include "machines/cm1/params.hpp"

namespace mppnet::machines::cm1 {

// Every key of [machine], [cm1], [traffic] and [run], declared once.
const io::KeyTable<Cm1Config>& cm1_keys();
std::vector<io::KeyInfo> cm1_key_list();

// Reads `path`, then applies each "key=value" of `sets` in order, then check_cm1. Throws core::ConfigError
// "file:line: key: reason" for an unreadable file, TOML syntax, unknown section or key (with a
// did-you-mean), wrong type, value out of range, and the cross-key problems of check_cm1.
Cm1Config load_cm1(const std::string& path, const std::vector<std::string>& sets);
// The same from a file already read and parsed (the one parse of `mppnet run`).
Cm1Config load_cm1(const io::ConfigFile& file, const std::vector<std::string>& sets);
// The same from TOML text in memory; `name` stands for the file in messages.
Cm1Config load_cm1_text(const std::string& text, const std::string& name,
                        const std::vector<std::string>& sets);

// Every key on its own, then across keys: transpose needs an even number of processor address bits,
// the target VP must exist, and the machine must fit the 2^24 VP limit of the simulator.
void check_cm1(const Cm1Config& c);

nlohmann::json to_json(const Cm1Config& c);

// The total VPs (= the largest message count) of a configuration.
std::int64_t vp_count(const Cm1Config& c);
// Messages are indexed by 24 bits in the router's row entries.
inline constexpr std::int64_t kMaxVps = std::int64_t{1} << 24;

}  // namespace mppnet::machines::cm1
