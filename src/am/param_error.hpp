// am/param_error.hpp: a node-program parameter that does not fit the machine, blamed on one config key.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace mppnet::am {

// `key` names the config key to blame ("app.counter_home", "am.separate_vnets"; empty when no key is to
// blame), and `mppnet app` reports the error where that key was set, as every other config error.
// what() is the reason, which does not repeat the key. Machines throw it when they are built (a machine
// that cannot give requests and replies networks of their own), applications when they check their
// parameters.
class ParamError : public std::invalid_argument {
 public:
  ParamError(std::string key, const std::string& reason)
      : std::invalid_argument(reason), key_(std::move(key)) {}
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

}  // namespace mppnet::am
