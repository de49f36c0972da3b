// Copyright 2026 The meshflow Authors.
// Views of a tensor's memory that no recorded call made (x[0] of a local row-major x, as
// torch's: fn::basic_index), and what autograd does for them: they count their writes with
// their base (share_version), so backward refuses a call that read one before its memory was
// written through any alias (row = x[0]; y = row * w; x[0] = v), as torch's. An in-place
// write through the view itself (row.mul_(w)) is computed out of place from the old value,
// whose calls keep that value and are exempt from the check (Var::assign), and then written
// over the base's memory: so a call recorded for autograd that saves such a view saves a
// copy where its gradient reads it (functional.cc, record_with_grad).
// Thread-safety: as Var's (var.h).
#pragma once

#include "meshflow/autograd/var.h"

namespace mf {

// A Var of `part`, a view sharing `base`'s storage (no copy) and its version count
// (share_version); it requires no grad.
Var aliasing(Tensor part, const Var& base);

// Version counts shared by a base and its views, as torch's VariableVersion: `view` counts
// its in-place writes (Var::assign, set_data; Var::version reads the count) with `base`'s
// count, so a write to either, or to any other view of the base, bumps the version every
// one of them reads, and backward refuses a call that saved any of them before, whether or
// not the saved view itself is still alive (Node::saved holds the Var that holds the count,
// which every view of it holds). Python's views (_inplace._link) and aliasing() share it;
// Var::detach() does not (the calls of a value save its detach(): holding the base from
// there would hold the graph).
void share_version(const Var& view, const Var& base);
// A write counted once already, taken again by a Var sharing its count (a view's base
// following a write through the view, a base's view following its base): v takes `result`
// as Var::assign does, counting no version, as torch counts one write once.
void follow_write(const Var& v, const Var& result);
// Whether v's value is such a view: made by aliasing, a detach() of one, or a Var that was
// one or took one's value (set_data, assign), whose memory may still be another's.
bool aliases(const Var& v);

}  // namespace mf
