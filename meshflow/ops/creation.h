// Copyright 2026 The meshflow Authors.
// The random generator that the ops rand and randn draw from, and its seeding.
//
// The random ops are counter-based (Philox4x32-10, Salmon et al., SC 2011): element i of a
// call, i its row-major index in the LOGICAL tensor, takes its bits from
// philox(counter = offset + i, key = seed). So each rank computes just its own part, and a
// global tensor holds the same values whatever its placement and SBP: the values of a local
// call with the same seed and offset.
//
// The generator state is the seed and the offset, the next unused counter. Each random call
// reserves numel counters, so successive calls differ. Every rank makes the same op calls
// (ranks outside the placement too), so the state stays equal on every rank. A call's seed
// and offset travel as the op's int attributes "seed" and "offset": the op stays a pure
// function of its attributes, which the SBP inference cache key includes.
//
// Thread-safe: the state is guarded by a mutex.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mf {

class Attrs;

// The state starts as if manual_seed(kDefaultSeed) had been called.
constexpr uint64_t kDefaultSeed = 67280421310721;  // PyTorch's default seed

// Sets the seed and restarts the offset at 0.
void manual_seed(uint64_t seed);

// One random call's attributes.
struct RandomCall {
  int64_t seed;    // attribute "seed": the seed's 64 bits
  int64_t offset;  // attribute "offset": the call's first counter
};

// The generator's whole state, to save with a checkpoint and restore on resuming: the
// calls after set_generator_state(s) draw what the calls after generator_state() == s drew.
struct GeneratorState {
  uint64_t seed;
  uint64_t offset;
};
GeneratorState generator_state();
void set_generator_state(const GeneratorState& state);

// Reserves `numel` counters (numel >= 0, else std::invalid_argument) for the next call.
RandomCall next_random_call(int64_t numel);

// randperm's values (the op "randperm": "n", "dtype" int32 or int64, "seed", "offset"): the
// permutation of 0 .. n-1 that sorts n keys, key i being the 64 bits of
// philox(offset + i, seed)'s first two words (ties, practically never, by i). Every rank
// computes the whole permutation (it depends on every key) and keeps its part; the CUDA
// kernel calls this on the host and copies its part to the GPU.
std::vector<int64_t> random_permutation(int64_t n, uint64_t seed, uint64_t offset);

// The permutation of 0 .. n-1 (n >= 0, else std::invalid_argument) that PyTorch's CPU
// `torch.randperm(n, generator=g)` gives when g = torch.Generator().manual_seed(seed) has
// drawn `drawn` 32-bit values before: a Fisher-Yates shuffle drawing n - 1 values from an
// mt19937 seeded with seed's low 32 bits, swapping item i with item i + draw % (n - i).
// DistributedSampler, and the samplers and random_split given a generator that only they
// drew from, shuffle with it, so a program reads the samples torch's reads (its losses are
// torch's); meshflow's own random ops draw from philox (random_permutation).
std::vector<int64_t> torch_cpu_permutation(int64_t n, uint64_t seed, uint64_t drawn = 0);

// An integer arange's start or step (attribute `key` of the op "arange"), for the CPU's kernel
// and the GPU's: exact where an int attribute, else truncated as torch's (ops/range_math.h).
int64_t arange_int(const Attrs& attrs, const std::string& key);

}  // namespace mf
