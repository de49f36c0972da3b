// Copyright 2026 The meshflow Authors.
// The CUDA device ("cuda"): one per GPU, in the spirit of OneFlow's ep::CudaDevice.
//
// Streams: each stream is a host worker (device/cpu/cpu_device.h's streams, one thread each,
// as the eager VM's instruction workers in the seeds' design) paired with a non-blocking
// cudaStream_t: work launched on the stream runs on the worker, which enqueues its kernels
// on the CUDA stream (current_stream() tells a kernel which). An event is a host event
// (the worker has enqueued everything before it) plus a pooled cudaEvent_t recorded by the
// worker right after; a wait on it is launched on the waiting worker, which first waits for
// that record to have been issued and then calls cudaStreamWaitEvent, so the GPU never
// waits on an event recorded later than the one meant (cudaStreamWaitEvent waits for the
// last record issued before the call).
//
// Memory: a stream-ordered caching allocator over cudaMalloc (split and merged blocks in
// segments; small requests share 2 MiB segments), its segments within the device's limit
// (Device::set_memory_limit). A block belongs to the stream it was
// allocated on (off the workers: the compute stream) and is reused on that stream without
// waiting; where other streams of the device launched work while it was alive, its free
// records an event on each, and the block is reused only once they have completed. On cudaMalloc failure the cache is freed and the
// allocation retried, then OutOfMemoryError (core/error.h) says what was requested, in use,
// cached and the limit; so for a segment that would pass the limit. Host copies and fills called off the device's workers (the CPU's comm
// worker staging a collective) run on a side stream ordered after the compute stream, and
// wait for it; on a worker they run in its stream's order, and host copies wait for it.
// Copies to the host on the device-to-host stream come after the compute stream's work.
// Staging memory is pinned host memory, cached by size.
//
// Errors: CUDA calls throw std::runtime_error naming the call and CUDA's message; an
// asynchronous error (a kernel's bad access) surfaces at the next synchronizing call.
//
// Thread-safety: as device.h. This header includes the CUDA runtime: only CUDA code
// (device/cuda, ops/cuda) includes it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <string>

#include "meshflow/device/device.h"

namespace mf::device::cuda {

// How many GPUs this process sees (0 without a driver or GPU; never throws).
int device_count();
// GPU `index`, created on first use and never destroyed. Throws std::invalid_argument when
// there is no such GPU (naming how many there are).
Device& device(int index);
// The GPU a placement on "cuda" uses on this rank: MESHFLOW_CUDA_DEVICE when set (throws
// std::invalid_argument unless it is an index of a GPU this process sees), else the rank's
// index on its host (as OpenMPI, MPICH, Slurm or torchrun say it) modulo the GPUs it sees.
int rank_device_index();
bool is_cuda(const Memory& memory);

// The CUDA stream the calling thread's work goes on: its worker's, or null off the workers.
cudaStream_t current_stream();
// The GPU of the calling worker, or -1 off the workers.
int current_device_index();

// Runs `call` (kernels called off the workers: graph mode's folding, tests) on GPU `index`'s
// compute stream worker, in order with its other work, and waits for it; rethrows what it
// threw.
void run_on_compute(int index, const std::function<void()>& call);

// Whether kernels are timed (MESHFLOW_PROFILE=1; Device::kernel_times reports them).
bool profiling();
// Runs `launch` (an op's kernels, enqueued on current_stream() by a worker) between two
// timing events, noted under `op` for Device::kernel_times.
void timed(const std::string& op, const std::function<void()>& launch);

// Throws std::runtime_error("CUDA error in <what>: <message>") unless `status` is success.
void check(cudaError_t status, const char* what);

// For a comm backend that reads and writes a GPU's memory itself (NCCL, comm/nccl): orders
// `stream`, one of the backend's own on that GPU, after the work that copies of `memory`
// called from this thread follow (on one of that GPU's workers, its stream's work; elsewhere,
// as on the CPU's comm worker, everything launched on the compute stream so far), so that its
// collectives read what the staged path's copies would read. Makes the GPU the thread's own.
void order_as_copies(const Memory& memory, cudaStream_t stream);
// Whether everything enqueued on `stream` has run (cudaStreamQuery); throws as check() on an
// error, and leaves no "not ready" as the thread's last error.
bool stream_done(cudaStream_t stream, const char* what);


}  // namespace mf::device::cuda
