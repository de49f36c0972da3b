// Copyright 2026 The meshflow Authors.
// The test device ("testdev"): a device whose memory host code cannot dereference, to prove
// the runtime device-generic on machines without accelerators. Its blocks are host blocks
// whose addresses are moved by a fixed offset into the non-canonical half of the address
// space: a host read or write of one faults at once (ASan names it), while pointer
// arithmetic (views, offsets) works as on any device. Each test device draws its blocks
// from a host pool of its own (core/allocator.h), so its memory figures and limit are its
// own, apart from the host's, as a GPU's are. Only its copies and its kernels (the
// CPU kernels run on host_address views, ops/testdev) translate. Its streams are worker
// threads of their own (device/cpu/cpu_device.h). A process has kCount of them ("testdev:0",
// "testdev:1"), as a host has several GPUs: each has its own memory and streams, so moves
// between devices of one type are tested too.
#pragma once

#include <cstdint>

#include "meshflow/core/tensor.h"
#include "meshflow/device/device.h"

namespace mf::device::testdev {

constexpr int kCount = 2;
// Test device `index` (registered as "testdev"), created on first use, never destroyed.
// Throws std::invalid_argument for an index outside [0, kCount).
Device& device(int index = 0);
// Each kernel on a test device completes no sooner than `us` microseconds after it starts
// (0: as soon as it has run), as on a busy GPU; starts at MESHFLOW_TESTDEV_LATENCY_US. It
// proves that the issuing thread runs ahead of its device. Thread-safe.
void set_latency_us(int64_t us);
int64_t latency_us();
// Whether `memory` is a test device's (any index).
bool is_testdev(const Memory& memory);
// The host address behind a test-device address.
void* host_address(const void* address);
// `t` (on the test device) as a host tensor over the same bytes, sharing its storage's life.
Tensor host_view(const Tensor& t);

}  // namespace mf::device::testdev
