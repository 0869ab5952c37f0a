// topo/build_test.cpp: check() rejects each impossible topology with the key at fault; names and counts.
#include "topo/build.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "topo/params_for_test.hpp"
#include "topo/saturating.hpp"
#include "topo/topology.hpp"
#include "topo/topology_keys.hpp"

namespace mppnet::topo::build_test {
namespace {

using ::testing::HasSubstr;
using namespace ::mppnet::topo::testing;

// The single problem check() reports; fails the test, listing them all, when there is not exactly one.
Problem only_problem(const TopologyParams& p, int vcs) {
  const auto problems = check(p, vcs);
  if (problems.size() != 1) {
    for (const auto& q : problems) ADD_FAILURE() << q.key << ": " << q.reason;
    return {};
  }
  return problems.front();
}

TEST(Check, AcceptsEveryTopologyTheTestsBuild) {
  for (const auto& p : {mesh(2, 1), mesh(8, 2), torus(3, 1), torus(5, 3), hypercube(1), hypercube(20),
                        k_ary_n_tree(4, 11), k_ary_n_tree(4, 3), cm5(1), cm5(3), cm5(7), cm5(11)}) {
    EXPECT_TRUE(check(p, 2).empty()) << describe(p);
  }
}

TEST(Check, MeshNeedsKAtLeast2) {
  const Problem q = only_problem(mesh(1, 2), 1);
  EXPECT_EQ(q.key, "topology.k");
  EXPECT_THAT(q.reason, HasSubstr("got 1"));
}

TEST(Check, TorusNeedsKAtLeast3AndSuggestsAMesh) {
  const Problem q = only_problem(torus(2, 2), 2);
  EXPECT_EQ(q.key, "topology.k");
  EXPECT_THAT(q.reason, HasSubstr("got 2"));
  EXPECT_THAT(q.reason, HasSubstr("use a mesh"));
}

TEST(Check, EveryKindNeedsNAtLeast1) {
  for (const auto& [p, n] : {std::pair{mesh(4, 0), 0}, std::pair{torus(4, -1), -1},
                             std::pair{hypercube(0), 0}, std::pair{k_ary_n_tree(4, 0), 0}}) {
    const Problem q = only_problem(p, 2);
    EXPECT_EQ(q.key, "topology.n") << describe(p);
    EXPECT_THAT(q.reason, HasSubstr("(got " + std::to_string(n) + ")")) << describe(p);
  }
}

TEST(Check, HypercubeHasAtMost20Dimensions) {
  const Problem q = only_problem(hypercube(21), 1);
  EXPECT_EQ(q.key, "topology.n");
  EXPECT_THAT(q.reason, HasSubstr("got 21"));
}

TEST(Check, MeshWithMoreThan2To22NodesIsRejected) {
  // 2048^2 = 4,194,304 = 2^22 nodes is the largest accepted; 2049^2 = 4,198,401 is one row too many.
  EXPECT_TRUE(check(mesh(2048, 2), 1).empty());
  const Problem q = only_problem(mesh(2049, 2), 1);
  EXPECT_EQ(q.key, "topology.n");
  EXPECT_THAT(q.reason, HasSubstr("4198401 nodes"));
}

TEST(Check, HugeSizesSaturateInsteadOfOverflowing) {
  // INT_MAX^INT_MAX overflows any integer type; the count saturates and is reported as too large.
  const Problem q = only_problem(torus(INT_MAX, INT_MAX), 2);
  EXPECT_EQ(q.key, "topology.n");
  EXPECT_THAT(q.reason, HasSubstr("more than " + std::to_string(kSaturated)));
  EXPECT_EQ(node_count(torus(INT_MAX, INT_MAX)), kSaturated);
  // 2^64 fat-tree nodes would wrap a 64-bit count to 0.
  EXPECT_EQ(node_count(k_ary_n_tree(2, 64)), kSaturated);
  EXPECT_EQ(only_problem(k_ary_n_tree(2, 64), 1).key, "topology.n");
}

TEST(Check, FatTreeWithMoreThan2To22NodesIsRejected) {
  // 2^23 nodes in a 2-ary 23-tree.
  const Problem q = only_problem(k_ary_n_tree(2, 23), 1);
  EXPECT_EQ(q.key, "topology.n");
  EXPECT_THAT(q.reason, HasSubstr("8388608 nodes"));
}

TEST(Check, FatTreeWithMoreThan2To24RoutersIsRejected) {
  // 2-ary 22-tree, 8 parents per level, 8 links per node: C(k) = 8^k, so C(22) = 2^66 chips in the root
  // alone; the count saturates rather than wrapping.
  FatTreeParams p = fat_tree_params(k_ary_n_tree(2, 22));
  p.parents = {8};
  p.leaf_links = 8;
  const Problem q = only_problem(topology_of(p), 1);
  EXPECT_EQ(q.key, "topology.n");
  EXPECT_THAT(q.reason, HasSubstr("more than " + std::to_string(kSaturated) + " routers"));
}

TEST(Check, FatTreeChildrenBetween2And8) {
  for (int c : {1, 9}) {
    const Problem q = only_problem(k_ary_n_tree(c, 2), 1);
    EXPECT_EQ(q.key, "topology.children");
    EXPECT_THAT(q.reason, HasSubstr("got " + std::to_string(c)));
  }
}

TEST(Check, FatTreeParentsEntriesBetween1And8) {
  for (int bad : {0, 9}) {
    FatTreeParams p = fat_tree_params(cm5(5));
    p.parents[1] = bad;
    const Problem q = only_problem(topology_of(p), 1);
    EXPECT_EQ(q.key, "topology.parents");
    EXPECT_THAT(q.reason, HasSubstr("parents[1] = " + std::to_string(bad)));
  }
}

TEST(Check, FatTreeParentsLongerThanTheLevelsAreIgnoredBeyondTheTop) {
  // n = 3 levels: levels 1 and 2 have parents; the third entry of the CM-5 schedule [2, 2, 4] is unused,
  // so one preset fits every machine size, and the tree equals the one built from [2, 2].
  FatTreeParams f = fat_tree_params(cm5(3));
  f.parents = {2, 2, 4};
  const TopologyParams p = topology_of(f);
  EXPECT_TRUE(check(p, 1).empty());
  f.parents = {2, 2};
  const TopologyParams q = topology_of(f);
  EXPECT_EQ(build(p).ports.size(), build(q).ports.size());
  EXPECT_EQ(build(p).num_routers(), build(q).num_routers());
}

TEST(Check, FatTreeLeafLinksBetween1And8) {
  for (int links : {0, 9}) {
    FatTreeParams p = fat_tree_params(cm5(3));
    p.leaf_links = links;
    const Problem q = only_problem(topology_of(p), 1);
    EXPECT_EQ(q.key, "topology.leaf_links");
    EXPECT_THAT(q.reason, HasSubstr("got " + std::to_string(links)));
  }
}

TEST(Check, TorusNeedsTwoVcsForItsDatelineClasses) {
  const Problem q = only_problem(torus(4, 2), 1);
  EXPECT_EQ(q.key, "router.vcs");
  EXPECT_THAT(q.reason, HasSubstr("dateline"));
  EXPECT_THAT(q.reason, HasSubstr("got 1"));
}

TEST(Check, EveryRouterNeedsOneVc) {
  const Problem q = only_problem(mesh(4, 2), 0);
  EXPECT_EQ(q.key, "router.vcs");
  EXPECT_THAT(q.reason, HasSubstr("got 0"));
}

TEST(Check, AtMost64Vcs) {
  EXPECT_TRUE(check(hypercube(3), 64).empty());
  const Problem q = only_problem(hypercube(3), 65);
  EXPECT_EQ(q.key, "router.vcs");
  EXPECT_THAT(q.reason, HasSubstr("at most 64"));
  EXPECT_THAT(q.reason, HasSubstr("got 65"));
}

TEST(Check, ReportsEveryProblemAtOnce) {
  // k, n and vcs are each wrong: three problems, in that order.
  const auto problems = check(torus(1, 0), 1);
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0].key, "topology.k");
  EXPECT_EQ(problems[1].key, "topology.n");
  EXPECT_EQ(problems[2].key, "router.vcs");
}

TEST(NodeCount, IsKToTheNOrChildrenToTheN) {
  EXPECT_EQ(node_count(mesh(8, 2)), 64);          // 8^2
  EXPECT_EQ(node_count(torus(5, 3)), 125);        // 5^3
  EXPECT_EQ(node_count(hypercube(10)), 1024);     // 2^10
  EXPECT_EQ(node_count(cm5(7)), 16384);           // 4^7, the largest CM-5 of note 000 §2.3.1
  EXPECT_EQ(node_count(k_ary_n_tree(4, 3)), 64);  // 4^3
  EXPECT_EQ(node_count(mesh(-3, 2)), 0);          // rejected values count as 0 per dimension
}

TEST(Registry, EveryTopologyIsRegisteredByItsConfigSpelling) {
  std::vector<std::string> names;
  for (const TopologyInfo* t : topologies()) names.push_back(t->name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"cmesh", "dragonfly", "fat_tree", "hypercube", "mesh", "torus"}));
  EXPECT_EQ(&topology("torus"), &kTorusTopology);
  EXPECT_EQ(find_topology("dorr"), nullptr);
}

TEST(Check, AKeyTheKindDoesNotReadIsRejected) {
  TopologyParams p = mesh(4, 2);
  p.values["children"] = std::int64_t{4};
  const Problem q = only_problem(p, 1);
  EXPECT_EQ(q.key, "topology.children");
  EXPECT_EQ(q.reason, "a mesh has no key children; its keys: k, n, wrap, dateline, path_multicast");
}

TEST(Check, AnUnknownKindIsRejected) {
  const TopologyParams p{.kind = "dorr", .values = {}};
  const Problem q = only_problem(p, 1);
  EXPECT_EQ(q.key, "topology.kind");
  EXPECT_EQ(q.reason,
            "unknown topology \"dorr\"; expected one of: cmesh, dragonfly, fat_tree, hypercube, mesh, torus");
}

TEST(Keys, ReadingBackATopologyGivesItsParameters) {
  const FatTreeParams f{
      .n = 3, .children = 4, .parents = {2, 2}, .leaf_links = 2, .up_routing = UpRouting::Deterministic};
  const FatTreeParams back = fat_tree_params(topology_of(f));
  EXPECT_EQ(back.n, 3);
  EXPECT_EQ(back.parents, (std::vector<int>{2, 2}));
  EXPECT_EQ(back.leaf_links, 2);
  EXPECT_EQ(back.up_routing, UpRouting::Deterministic);
  // A key not set takes the struct's default.
  EXPECT_EQ(fat_tree_params(TopologyParams{.kind = "fat_tree", .values = {}}).children,
            FatTreeParams{}.children);
  EXPECT_EQ(describe(topology_of(f)),
            "fat_tree (n = 3, children = 4, parents = [2, 2], leaf_links = 2, up_routing = deterministic)");
}

TEST(Keys, ASharedNameIsOneKeyWhoseDocSaysWhatItMeansToEach) {
  const auto keys = topology_config_keys();
  const auto n = std::find_if(keys.begin(), keys.end(), [](const auto& k) { return k.spec.name == "n"; });
  ASSERT_NE(n, keys.end());
  EXPECT_EQ(n->spec.doc, "fat_tree: levels (nodes = children^n); hypercube, mesh, torus: dimensions.");
  EXPECT_EQ(std::count_if(keys.begin(), keys.end(), [](const auto& k) { return k.spec.name == "n"; }), 1);
  EXPECT_EQ(keys.front().spec.name, "kind");
}

}  // namespace
}  // namespace mppnet::topo::build_test
