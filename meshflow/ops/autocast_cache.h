// Copyright 2026 The meshflow Authors.
// mf.autocast's cache of its casts (torch's autocast cache; autocast itself: ops/functional.h,
// AutocastState). While autocast is set and the cache is on, the cast down to the autocast
// dtype of a float32 leaf that requires grad (a parameter) is made once and reused by every
// later call that casts it: a weight used twice in a forward is cast once, and so is one used
// by all the micro-batches run inside one region (graph mode's trace too: one cast node, which
// reads only the variable and so runs once per step, before the micro-batches and the
// pipeline's stages). A cast is reused only while its parameter is unwritten (Var::version: an
// optimizer step, an in-place op, load_state_dict's copy) and by the same tracing (or none).
// While grad mode is on, each reuse is recorded for autograd as a cast of the parameter of its
// own (a node, the value not computed again), so each consumer's gradient reaches the
// parameter as without the cache, and a cast made under no_grad serves a later forward with
// grad. The cache is emptied whenever set_autocast changes the setting (a region's exit) or the cache
// is turned off; until then it keeps its casts, and their parameters, alive.
// Thread-safety: per thread, as the autocast setting.
#pragma once

#include <cstddef>

namespace mf {

class OpTracer;

// Turns the cache on or off on this thread (mf.autocast's cache_enabled; on by default);
// returns the previous setting.
bool set_autocast_cache(bool on);
bool autocast_cache_enabled();
// The casts the cache holds on this thread.
size_t autocast_cached_casts();
// Drops the casts made while `tracer` traced (graph mode's tracing scope ends): a later
// tracer may take its address.
void drop_autocast_casts_of(const OpTracer* tracer);

}  // namespace mf
