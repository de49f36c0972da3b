// Copyright 2026 The meshflow Authors.
// The in-place update being issued on this thread (fn::update_in_place: an optimizer's
// step): which outputs of its op call may be written over which inputs' memory. Eager calls
// pass that to the VM themselves (vm::Flags::overwrite); graph mode's tracer, which records
// the call instead of running it, reads it here (Node::overwrite), so that the memory plan
// can write a variable's new value over its old one (buffer donation).
//
// Thread-safety: per thread; an InPlaceUpdate lives on the stack of the call it describes.
#pragma once

#include <vector>

#include "meshflow/ops/op.h"

namespace mf {

class InPlaceUpdate {
 public:
  // Output k of the call of `op` being issued may be written over input overwrite[k]'s
  // memory (-1, or k past the end: not), each element read before it is written.
  InPlaceUpdate(const OpDef& op, const std::vector<int>& overwrite) : previous_(current()) {
    current() = {&op, &overwrite};
  }
  ~InPlaceUpdate() { current() = previous_; }
  InPlaceUpdate(const InPlaceUpdate&) = delete;
  InPlaceUpdate& operator=(const InPlaceUpdate&) = delete;

  // The overwrite of `op`'s call when it is the in-place update being issued, else null.
  static const std::vector<int>* of(const OpDef& op) { return current().op == &op ? current().overwrite : nullptr; }

 private:
  struct Update {
    const OpDef* op = nullptr;
    const std::vector<int>* overwrite = nullptr;
  };
  static Update& current() {
    thread_local Update update;
    return update;
  }
  Update previous_;
};

}  // namespace mf
