// io/json_csv.hpp: a result file's scalar fields as a one-row CSV, for the commands whose results are
// one record (a CM-1 routing run, a node program), so that every command writes CSV beside its JSON.
#pragma once

#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace mppnet::io {

// The header and one row: every number, boolean (0 or 1) and string of `doc`, nested objects flattened
// with dotted names ("read.reply_rounds"), in the document's order; arrays and the top-level keys in
// `skip` (e.g. "config", which the JSON records in full) are left out. REQUIRES: doc is an object.
std::string scalar_fields_csv(const nlohmann::json& doc, const std::set<std::string>& skip);

}  // namespace mppnet::io
