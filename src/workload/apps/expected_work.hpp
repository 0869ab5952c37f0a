// workload/apps/expected_work.hpp: how many active messages an application will send, before it runs.
//
// `mppnet app` prints this at the start, with the time it takes at the rates measured on a 2-core host,
// and warns when the run will pass an hour. Each application's count is a closed form of its parameters:
// the data messages it sends (a block of b bytes is ceil(b / am.packet_payload_bytes) requests), the
// replies it asks for, and its collectives when they are done in software (TreeCollectives: 2 (P - 1)
// requests for each combine, one combine per 8 bytes of a broadcast block); collective hardware (the
// CM-5's control network) sends none of its messages as active messages.
// It is an estimate, not a bound: apps_expected_work_test.cpp compares it with the counts of real runs.
#pragma once

#include "am/am_params.hpp"
#include "workload/apps/app_params.hpp"

namespace mppnet::workload::apps {

enum class CollectivesIn { Software, Hardware };

// Requests and replies an application sends on `p` nodes: each application's AppInfo::expected_messages
// (registry.hpp) is one of these.
using ExpectedMessages = double (*)(const AppParams& params, int p, const am::AmParams& am,
                                    CollectivesIn collectives);

double alltoall_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn collectives);
double counter_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn collectives);
double permutation_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn collectives);
double stencil2d_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn collectives);
double stencil3d_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn collectives);
double samplesort_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn collectives);
double radixsort_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn collectives);
double fft_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn collectives);
double getput_messages(const AppParams& a, int p, const am::AmParams& am, CollectivesIn collectives);

}  // namespace mppnet::workload::apps
