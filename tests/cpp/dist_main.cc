// Copyright 2026 The meshflow Authors.
// The gtest main of the distributed suite, run under mpirun: every rank runs every test in
// the same order (so --gtest_filter must be the same on every rank). Only rank 0 prints the
// usual report. A failure on any rank is printed with that rank's number and ends the whole
// job at once: the other ranks would otherwise wait forever in the next collective that the
// failing rank never joins. Graph compiles check their graph between passes (passes.h).
#include <gtest/gtest.h>

#include <string>

#include "meshflow/comm/comm.h"
#include "meshflow/graph/passes.h"

namespace {

class AbortJobOnFailure : public testing::EmptyTestEventListener {
 public:
  explicit AbortJobOnFailure(int rank) : rank_(rank) {}

  // Remembered here: UnitTest::current_test_info() would deadlock inside OnTestPartResult,
  // which gtest calls with the UnitTest's mutex held.
  void OnTestStart(const testing::TestInfo& test) override {
    name_ = std::string(test.test_suite_name()) + "." + test.name();
  }
  void OnTestEnd(const testing::TestInfo&) override { name_ = "(outside any test)"; }

  void OnTestPartResult(const testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::string where;
    if (result.file_name()) where = std::string(result.file_name()) + ":" + std::to_string(result.line_number()) + ": ";
    mf::comm::abort_job("[rank " + std::to_string(rank_) + "] FAILED " + name_ + ": " + where + result.message());
  }

 private:
  int rank_;
  std::string name_ = "(outside any test)";
};

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  mf::graph::set_check_passes(true);
  const int rank = mf::comm::world_rank();  // initializes MPI
  testing::TestEventListeners& listeners = testing::UnitTest::GetInstance()->listeners();
  if (rank != 0) delete listeners.Release(listeners.default_result_printer());
  listeners.Append(new AbortJobOnFailure(rank));
  return RUN_ALL_TESTS();
}
