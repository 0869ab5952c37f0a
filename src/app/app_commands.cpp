// app/app_commands.cpp: loading an application run ([am] and [app] on top of a network config) and
// reporting it.
//
// A config file for `mppnet app` is a network experiment file plus two tables, parsed once. Each owner
// reads its own sections of that one document: the network model every section but [am] and [app]
// (rejecting any it does not declare), the application settings [am] and [app]; node lines keep their
// place in the document, so every error names its true line. Each --set goes to the owner of its section.
#include "app/app_commands.hpp"
#include "app/app_report.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include <fmt/format.h>
#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "am/am_keys.hpp"
#include "am/collectives.hpp"
#include "am/message.hpp"
#include "core/error.hpp"
#include "core/exit_status.hpp"
#include "exp/experiment_config.hpp"
#include "exp/experiment_keys.hpp"
#include "io/atomic_file.hpp"
#include "io/config_loader.hpp"
#include "io/output_directory.hpp"
#include "registry/registry.hpp"
#include "topo/build.hpp"
#include "workload/apps/app_keys.hpp"
#include "workload/apps/expected_work.hpp"
#include "workload/apps/registry.hpp"
#include "workload/apps/sized_defaults.hpp"

namespace mppnet::app {

namespace {

const io::KeyTable<AppSettings>& app_settings_keys() {
  static const io::KeyTable<AppSettings> table{
      io::section("am", &AppSettings::am, am::am_keys()),
      io::section("app", &AppSettings::app, workload::apps::app_keys())};
  return table;
}

// The sections an application run reads besides the network model's.
const std::vector<std::string> kOwnSections = {"am", "app"};

// Node memories in all (nodes x am.memory_bytes) on the generic network, whose sizes have no bound.
constexpr long long kMaxTotalMemoryBytes = 16LL << 30;

bool is_own_key(std::string_view assignment) {
  for (const std::string& s : kOwnSections) {
    const std::string prefix = s + ".";
    if (assignment.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

const workload::apps::AppInfo& find_app(const std::string& name) {
  const workload::apps::AppInfo* app = workload::apps::find_application(name);
  if (app == nullptr) {
    std::vector<std::string> names;
    for (const auto& a : workload::apps::applications()) names.push_back(a.name);
    const auto guess = io::nearest(name, names);
    throw core::ConfigError({}, "",
                            fmt::format("no application \"{}\"{}; see `mppnet list apps`", name,
                                        guess.empty() ? "" : fmt::format(" (did you mean {}?)", guess)));
  }
  return *app;
}

// The [app] keys the user set (in the file or by --set): fit_defaults leaves them as they are.
std::vector<std::string> set_app_keys(const AppSettings& s) {
  std::vector<std::string> keys;
  for (const auto& [key, where] : s.origin)
    if (key.rfind("app.", 0) == 0) keys.push_back(key);
  return keys;
}

}  // namespace

AppRunConfig load_app_config_text(const std::string& text, const std::string& path,
                                  const std::vector<std::string>& sets) {
  return load_app_config(io::config_file_from_text(text, path), sets);
}

AppRunConfig load_app_config(const io::ConfigFile& file, const std::vector<std::string>& sets) {
  const std::string& path = file.path;
  std::vector<std::string> network_sets, own_sets;
  for (const auto& s : sets) (is_own_key(s) ? own_sets : network_sets).push_back(s);

  AppRunConfig c{exp::load_experiment(file, network_sets, kOwnSections), {}};
  // Every other section was the network model's to read (and to reject when unknown).
  std::vector<std::string> network_sections;
  for (const auto& [k, v] : file.doc)
    if (!is_own_key(std::string(k.str()) + ".")) network_sections.emplace_back(k.str());
  AppSettings& s = c.settings;
  s.source_file = path;
  app_settings_keys().set_document(s, file.doc, path, &s.origin, network_sections);
  for (const auto& a : own_sets) app_settings_keys().set_arg(s, a, &s.origin);

  // Requests and replies each get an even share of every port's VCs, and the routing sees that share.
  const exp::ExperimentConfig& e = c.experiment;
  const int vnets = s.am.separate_vnets ? 2 : 1;
  if (e.router.vcs % vnets != 0)
    io::fail_at(e, "router.vcs",
                fmt::format("am.separate_vnets splits the VCs evenly between requests and replies: {} VCs "
                            "cannot be split in 2",
                            e.router.vcs));
  for (const auto& p : topo::check(e.topology, e.router.vcs / vnets))
    io::fail_at(e, p.key == "topology.kind" ? "router.vcs" : p.key,
                fmt::format("{} (each of the {} virtual networks has router.vcs / {} = {} VCs)", p.reason,
                            vnets, vnets, e.router.vcs / vnets));
  // Every node's memory is reserved up front (zero pages: the host pays for what is written) and a
  // program may write all of it: cap the total so that a large machine with large memories is an input
  // error, not a failed reservation or a host brought to its knees. (A CM-5 has at most 16,384 nodes,
  // and its presets give each node the machine's real 32 MB.)
  const long long nodes = topo::node_count(e.topology);
  if (static_cast<double>(nodes) * static_cast<double>(s.am.memory_bytes) >
      static_cast<double>(kMaxTotalMemoryBytes))
    io::fail_at(s, "am.memory_bytes",
                fmt::format("{} nodes x {} bytes = {} bytes of node memory in all, more than the limit of {} "
                            "bytes (16 GiB)",
                            nodes, s.am.memory_bytes,
                            static_cast<unsigned long long>(nodes) *
                                static_cast<unsigned long long>(s.am.memory_bytes),
                            kMaxTotalMemoryBytes));
  // Cut-through and store-and-forward move a head only when the next VC buffer holds the whole packet:
  // an am packet larger than the buffer would wait in its source queue for ever.
  if (e.router.switching != net::Switching::Wormhole) {
    const int largest =
        (s.am.header_bytes + 4 * am::kMaxArgs + s.am.packet_payload_bytes + s.am.flit_bytes - 1) /
        s.am.flit_bytes;
    if (e.router.buffer_flits < largest)
      io::fail_at(
          e, "router.buffer_flits",
          fmt::format("{} switching needs a VC buffer that holds the largest am packet: {} flits is "
                      "less than {} (am.header_bytes {} + {} argument bytes + am.packet_payload_bytes {} "
                      "at am.flit_bytes {} a flit); raise router.buffer_flits or lower "
                      "am.packet_payload_bytes",
                      exp::experiment_keys().get(e, "router.switching").get<std::string>(),
                      e.router.buffer_flits, largest, s.am.header_bytes, 4 * am::kMaxArgs,
                      s.am.packet_payload_bytes, s.am.flit_bytes));
  }
  return c;
}

int app_command(const std::string& name, const io::ConfigFile& file, const std::vector<std::string>& sets,
                const std::filesystem::path& out, const AppRunOptions& options) {
  const workload::apps::AppInfo& app = find_app(name);
  AppRunConfig c = load_app_config(file, sets);
  const std::string& config = file.path;
  const exp::ExperimentConfig& e = c.experiment;
  const int nodes = static_cast<int>(topo::node_count(e.topology));
  const auto fitted = workload::apps::fit_defaults(name, c.settings.app, nodes, c.settings.am.memory_bytes,
                                                   set_app_keys(c.settings));
  // An input error leaves no results, not even the empty directory (io::OutputDirectory removes it).
  std::optional<io::OutputDirectory> output_directory;
  if (!options.check_only) output_directory.emplace(out);
  ProgressLines lines(name, options.progress);
  workload::apps::AppResult r;
  try {
    if (options.check_only) {
      app.check(c.settings.app, nodes, c.settings.am);
      return report_check(name, config, nodes, fitted);
    }
    app.check(c.settings.app, nodes, c.settings.am);  // parameters that do not fit: no estimate printed
    lines.expect(
        app.expected_messages(c.settings.app, nodes, c.settings.am, workload::apps::CollectivesIn::Software));
    r = workload::apps::run_application(app, e.topology, e.router, c.settings.am, c.settings.app,
                                        static_cast<std::uint64_t>(e.run.seed), e.run.watchdog_cycles,
                                        lines.sink());
  } catch (const workload::apps::AppParamError& err) {  // parameters that do not fit this machine
    const std::string& key = err.key();
    const bool own = is_own_key(key);
    throw core::ConfigError(
        own || key.empty() ? io::where_set(c.settings.origin, config, key) : io::where_set(e, key), key,
        err.what());
  } catch (const std::invalid_argument& err) {  // the machine cannot be built with these parameters
    throw core::ConfigError({config, 0}, "", err.what());
  }
  nlohmann::json cfg = exp::to_json(e);
  const nlohmann::json own = app_settings_keys().to_json(c.settings);
  for (const auto& [section, keys] : own.items()) cfg[section] = keys;
  return report_app(name, config, r, e.topology.kind, e.run.seed, cfg, fitted, out);
}

int app_command(const std::string& name, const io::ConfigFile& file, const std::vector<std::string>& sets,
                const std::filesystem::path& out, const registry::Model& model,
                const AppRunOptions& options) {
  const workload::apps::AppInfo& app = find_app(name);
  const std::string& path = file.path;
  std::vector<std::string> model_sets, own_sets;
  for (const auto& s : sets) (is_own_key(s) ? own_sets : model_sets).push_back(s);
  // [am] starts from the machine's own cost model; the file's [am] and --set override it.
  AppSettings settings;
  settings.source_file = path;
  for (const auto& [key, value] : model.node_programs.am_defaults)
    app_settings_keys().set_text(settings, key, value, {path, 0}, &settings.origin);
  std::vector<std::string> model_sections;
  for (const auto& [k, v] : file.doc)
    if (!is_own_key(std::string(k.str()) + ".")) model_sections.emplace_back(k.str());
  app_settings_keys().set_document(settings, file.doc, path, &settings.origin, model_sections);
  for (const auto& a : own_sets) app_settings_keys().set_arg(settings, a, &settings.origin);

  std::optional<io::OutputDirectory> output_directory;
  if (!options.check_only) output_directory.emplace(out);
  workload::apps::AppResult r;
  std::unique_ptr<registry::NodeMachine> host;
  std::vector<workload::apps::DefaultChange> fitted;
  ProgressLines lines(name, options.progress);
  try {
    host = model.node_programs.build(file, model_sets, settings.am);
    const int nodes = host->machine().nodes();
    fitted = workload::apps::fit_defaults(name, settings.app, nodes, settings.am.memory_bytes,
                                          set_app_keys(settings));
    if (options.check_only) {
      app.check(settings.app, nodes, settings.am);
      return report_check(name, path, nodes, fitted);
    }
    app.check(settings.app, nodes, settings.am);
    const bool software = dynamic_cast<const am::TreeCollectives*>(&host->machine().collectives()) != nullptr;
    lines.expect(app.expected_messages(
        settings.app, nodes, settings.am,
        software ? workload::apps::CollectivesIn::Software : workload::apps::CollectivesIn::Hardware));
    r = workload::apps::run_application_on(app, host->machine(), settings.app, host->seed(), lines.sink());
  } catch (const workload::apps::AppParamError& err) {
    throw core::ConfigError(io::where_set(settings.origin, path, err.key()), err.key(), err.what());
  } catch (const std::invalid_argument& err) {
    throw core::ConfigError({path, 0}, "", err.what());
  }
  nlohmann::json cfg = nlohmann::json::parse(host->config_json());
  const nlohmann::json own = app_settings_keys().to_json(settings);
  for (const auto& [section, keys] : own.items()) cfg[section] = keys;
  return report_app(name, path, r, host->description(), static_cast<std::int64_t>(host->seed()), cfg, fitted,
                    out);
}

int list_apps() {
  const auto keys = app_settings_keys().list();
  int width = 0;  // the longest name sets the column
  for (const auto& a : workload::apps::applications())
    width = std::max(width, static_cast<int>(a.name.size()));
  for (const auto& a : workload::apps::applications()) {
    std::printf("%-*s %s\n", width, a.name.c_str(), a.doc.c_str());
    for (const auto& k : a.keys) {
      for (const auto& info : keys)
        if (info.name == k)
          std::printf("%*s %s = %s  %s\n", width, "", k.c_str(), info.default_value.c_str(),
                      info.doc.c_str());
    }
  }
  std::puts("Every application also reads the [am] cost model (`mppnet list keys`, docs/am.md).");
  std::puts(
      "The defaults suit machines of up to 64 nodes; on a larger machine, a default that does not fit "
      "(memory, "
      "or the FFT's multiple of P^2) is fitted to it and the run says so; a value you set is kept.");
  return 0;
}

std::vector<io::KeyInfo> app_key_list() {
  return app_settings_keys().list();
}

}  // namespace mppnet::app
