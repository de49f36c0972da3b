// Copyright 2026 The meshflow Authors.
// Devices whose streams are host worker threads: the CPU (device::cpu()), and devices that
// run host code on memory of their own (the test device, device/testdev). Thread-safety as
// device.h says.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "meshflow/core/allocator.h"
#include "meshflow/device/device.h"

namespace mf::device {

// A device of `type` over `memory`, with a worker thread per stream and the CPU's events;
// its memory statistics and limit are `pool`'s, the pool `memory` allocates from. With
// `kernel_latency_us`, each item of work on its compute stream completes no sooner than that
// many microseconds after it starts (read at each item), as on a busy accelerator: the test
// device's, to prove that the issuing thread does not wait for its device.
std::unique_ptr<Device> make_worker_device(std::string type, Memory& memory, HostPool& pool,
                                           const std::atomic<int64_t>* kernel_latency_us = nullptr);
// A stream of `kind` with a worker thread of its own, whose events are the CPU's
// (device::cpu().create_event()): for devices that run host work in order before handing it
// to their own queues (device/cuda).
std::unique_ptr<Stream> make_worker_stream(StreamKind kind);

// How many threads a CPU kernel may use (its OpenMP team, OpenBLAS): set_cpu_threads(n), n >= 1,
// holds for the calling thread and for every stream worker from its next batch of work;
// cpu_threads() is that count (OpenMP's default until set). Thread-safe.
void set_cpu_threads(int n);
int cpu_threads();

}  // namespace mf::device
