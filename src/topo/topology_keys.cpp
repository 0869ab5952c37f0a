// topo/topology_keys.cpp: the [topology] table assembled from the registered topologies' keys.
#include "topo/topology_keys.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "topo/topology.hpp"

namespace mppnet::topo {

namespace {

bool same_range(const io::Range& a, const io::Range& b) {
  return a.lo == b.lo && a.hi == b.hi && a.lo_open == b.lo_open && a.hi_open == b.hi_open;
}

// One [topology] key, as every topology that reads it declared it.
struct SharedKey {
  TopologyKey key;
  std::vector<std::pair<std::string, std::vector<std::string>>> docs;  // doc -> the topologies it is for
};

// "mesh, torus: routers per dimension; hypercube: dimensions."
std::string joined_doc(const SharedKey& k) {
  std::string doc;
  for (const auto& [text, names] : k.docs) {
    if (!doc.empty()) doc += "; ";
    for (std::size_t i = 0; i < names.size(); ++i) doc += (i > 0 ? ", " : "") + names[i];
    doc += ": " + text;
  }
  return doc + ".";
}

// Every registered topology's keys, a shared name once. A name two topologies share must mean the same
// kind of value to both (type, range, choices, default): the loader checks it once, whatever the kind.
std::vector<SharedKey> shared_keys() {
  std::vector<SharedKey> out;
  for (const TopologyInfo* t : topologies()) {
    for (const TopologyKey& k : t->keys()) {
      auto it = std::find_if(out.begin(), out.end(),
                             [&](const SharedKey& s) { return s.key.spec.name == k.spec.name; });
      if (it == out.end()) {
        out.push_back({k, {}});
        it = out.end() - 1;
      }
      const io::KeySpec& first = it->key.spec;
      MPPNET_ASSERT(first.type == k.spec.type && same_range(first.check.range, k.spec.check.range) &&
                        first.check.choices == k.spec.check.choices &&
                        it->key.default_value == k.default_value,
                    "two topologies declare one key name with different types, ranges or defaults");
      auto doc = std::find_if(it->docs.begin(), it->docs.end(),
                              [&](const auto& d) { return d.first == k.spec.doc; });
      if (doc == it->docs.end()) {
        it->docs.push_back({k.spec.doc, {}});
        doc = it->docs.end() - 1;
      }
      doc->second.push_back(t->name);
    }
  }
  return out;
}

std::vector<std::string> kind_names() {
  std::vector<std::string> names;
  for (const TopologyInfo* t : topologies()) names.push_back(t->name);
  return names;
}

}  // namespace

std::vector<io::Key<TopologyParams>> topology_config_keys() {
  std::vector<io::Key<TopologyParams>> keys = {
      io::key("kind", &TopologyParams::kind, io::one_of(kind_names()),
              "Network shape (`mppnet list topologies`)."),
  };
  for (SharedKey& s : shared_keys()) {
    io::Key<TopologyParams> k;
    k.spec = s.key.spec;
    k.spec.doc = joined_doc(s);
    const std::string name = k.spec.name;
    k.store = [name](TopologyParams& t, const io::Value& v) { t.values[name] = v; };
    k.load = [name, fallback = s.key.default_value](const TopologyParams& t) {
      const io::Value* v = t.find(name);
      return v != nullptr ? *v : fallback;
    };
    keys.push_back(std::move(k));
  }
  return keys;
}

void check_kind_and_keys(const TopologyParams& p, std::vector<Problem>& out) {
  const TopologyInfo* t = find_topology(p.kind);
  if (t == nullptr) {
    std::string names;
    for (const auto& n : kind_names()) names += (names.empty() ? "" : ", ") + n;
    out.push_back({"topology.kind", "unknown topology \"" + p.kind + "\"; expected one of: " + names});
    return;
  }
  const auto keys = t->keys();
  for (const auto& entry : p.values) {
    const std::string& name = entry.first;
    if (std::any_of(keys.begin(), keys.end(), [&](const TopologyKey& k) { return k.spec.name == name; }))
      continue;
    std::string own;
    for (const auto& k : keys) own += (own.empty() ? "" : ", ") + k.spec.name;
    out.push_back({"topology." + name, std::string("a ") + t->name + " has no key " + name +
                                           (own.empty() ? "" : "; its keys: " + own)});
  }
}

std::string describe(const TopologyParams& p) {
  const TopologyInfo* t = find_topology(p.kind);
  if (t == nullptr) return p.kind;
  std::string out = p.kind + " (";
  bool first = true;
  for (const TopologyKey& k : t->keys()) {
    const io::Value* set = p.find(k.spec.name);
    const io::Value& v = set != nullptr ? *set : k.default_value;
    std::string text;
    if (const auto* i = std::get_if<std::int64_t>(&v)) {
      const auto& names = k.spec.check.choices;
      text = k.spec.type == io::KeyType::Enum && *i >= 0 && *i < static_cast<std::int64_t>(names.size())
                 ? names[static_cast<std::size_t>(*i)]
                 : std::to_string(*i);
    } else if (const auto* b = std::get_if<bool>(&v)) {
      text = *b ? "true" : "false";
    } else if (const auto* list = std::get_if<std::vector<std::int64_t>>(&v)) {
      for (std::size_t j = 0; j < list->size(); ++j)
        text += (j > 0 ? ", " : "[") + std::to_string((*list)[j]);
      text = list->empty() ? "[]" : text + "]";
    } else if (const auto* d = std::get_if<double>(&v)) {
      text = std::to_string(*d);
    } else if (const auto* s = std::get_if<std::string>(&v)) {
      text = *s;
    }
    out += (first ? "" : ", ") + k.spec.name + " = " + text;
    first = false;
  }
  return out + ")";
}

}  // namespace mppnet::topo
