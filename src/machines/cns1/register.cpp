// machines/cns1/register.cpp: what the CNS-1 model adds to mppnet (registry/registry.hpp).
#include "registry/registry.hpp"

namespace mppnet::machines::cns1 {

// Nothing yet: the folder holds the T1's network interface, which has no network to run on until the
// CNS-1 mesh joins it. The machine registers (model, keys, validation cases t1.*) once it can run.
void register_machine(registry::Registry& /*registry*/) {}

}  // namespace mppnet::machines::cns1
