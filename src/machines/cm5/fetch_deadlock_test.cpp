// machines/cm5/fetch_deadlock_test.cpp: the paper's fetch-deadlock and its left/right cure (note 000
// V22, paper L307-337), with node programs on the CM-5 model.
#include "machines/cm5/fetch_deadlock.hpp"

#include <gtest/gtest.h>

namespace mppnet::machines::cm5 {
namespace {

TEST(FetchDeadlock, RequestsAndRepliesOnOneSideDeadlock) {
  // (a): every reply waits behind requests on the same side, which wait for servers that wait to reply.
  EXPECT_EQ(request_flood(false, Sides::Right), -1);
}

TEST(FetchDeadlock, RequestsLeftAndRepliesRightAlwaysFinish) {
  EXPECT_EQ(request_flood(true, Sides::Right), 64 * 200);  // (b)
}

TEST(FetchDeadlock, RequestsLeftAndRepliesOnBothSidesFinish) {
  EXPECT_EQ(request_flood(true, Sides::Both), 64 * 200);  // (c): replies may use both sides (L330-332)
}

}  // namespace
}  // namespace mppnet::machines::cm5
