// Copyright 2026 The meshflow Authors.
// The CUDA device's own parts (device/cuda): its allocator, streams, events and copies. Ops on
// it are checked against the CPU by every op suite (op_check.h) and the boxing sweeps
// where a GPU is visible. Without one these tests skip, saying why.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "meshflow/device/cuda/cuda_device.h"
#include "meshflow/ops/dispatch.h"
#include "meshflow/vm/vm.h"

namespace mf {
namespace {

namespace cuda = device::cuda;

#define REQUIRE_GPU()                                                                                   \
  if (cuda::device_count() == 0) {                                                                    \
    GTEST_SKIP() << "no GPU visible: the CUDA device is built, its checks run on a machine with one " \
                    "(scripts/test-gpu)";                                                             \
  }

Tensor iota(int64_t n) {
  Tensor t = Tensor::empty({n}, DType::kFloat32);
  for (int64_t i = 0; i < n; ++i) t.data_as<float>()[i] = static_cast<float>(i) * 0.5f - 3.0f;
  return t;
}

bool same(const Tensor& a, const Tensor& b) {
  return a.shape() == b.shape() && a.dtype() == b.dtype() && std::memcmp(a.data(), b.data(), a.nbytes()) == 0;
}

TEST(Cuda, TypeIsRegisteredAndAMissingGpuIsAClearError) {
  EXPECT_TRUE(device::is_registered("cuda"));
  if (cuda::device_count() > 0) GTEST_SKIP() << "this machine has a GPU: the error is for machines without";
  try {
    device::get("cuda");
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cuda:0 does not exist; this process sees 0 GPUs"), std::string::npos) << e.what();
  }
}

// Needs no GPU: the kernel tables are filled at registration. Every op the CPU runs runs on
// a GPU too (each family's suite then checks its values against the CPU's on a machine with
// one), and an op without a CUDA kernel names itself and the device type.
// Exempt: the dense linear algebra of ops/linalg.cc runs LAPACK on the CPU only (cuSOLVER
// kernels are not written yet); on a GPU tensor it raises "[linalg_...] has no kernel for
// device type 'cuda'".
TEST(Cuda, EveryOpHasACudaKernel) {
  // LAPACK's ops and the ops of complex values (OpDef::complex_only: the FFTs, complex,
  // real, ...) are the CPU's for now (docs/gpu.md, "Not yet").
  auto cpu_only = [&](const std::string& name) {
    return name.rfind("linalg_", 0) == 0 || find_op(name).complex_only;
  };
  std::vector<std::string> missing;
  for (const std::string& name : op_names()) {
    const OpDef& op = find_op(name);
    EXPECT_TRUE(has_kernel(op, "cpu")) << name;
    if (!has_kernel(op, "cuda") && !cpu_only(name)) missing.push_back(name);
  }
  std::string list;
  for (const std::string& name : missing) list += " " + name;
  EXPECT_TRUE(missing.empty()) << "ops without a CUDA kernel:" << list;
  EXPECT_FALSE(has_kernel(find_op("add"), "no_such_device"));
}

TEST(Cuda, CopiesRoundTripAndStayOnTheGpu) {
  REQUIRE_GPU();
  Memory& gpu = device::get("cuda").memory();
  EXPECT_FALSE(gpu.host_accessible());
  EXPECT_EQ(gpu.device_str(), "cuda:0");
  const Tensor host = iota(1000);
  const Tensor dev = host.copy_to(gpu);
  EXPECT_EQ(&dev.memory(), &gpu);
  const Tensor back = dev.clone().view(10, {990}).copy_to(host_memory());
  EXPECT_TRUE(same(back, host.view(10, {990})));
  const Tensor zeros = Tensor::zeros({7}, DType::kInt64, gpu).copy_to(host_memory());
  for (int i = 0; i < 7; ++i) EXPECT_EQ(zeros.data_as<int64_t>()[i], 0);
}

TEST(Cuda, AllocatorReusesFreedBlocksAndCountsThem) {
  REQUIRE_GPU();
  device::Device& d = device::get("cuda");
  d.synchronize();
  const device::MemoryStats before = d.memory_stats();
  void* first;
  {
    std::shared_ptr<void> a = d.allocate(3 << 20);
    first = a.get();
    EXPECT_GE(d.memory_stats().in_use_bytes, before.in_use_bytes + (3 << 20));
  }
  EXPECT_EQ(d.memory_stats().in_use_bytes, before.in_use_bytes);
  std::shared_ptr<void> again = d.allocate(3 << 20);
  EXPECT_EQ(again.get(), first) << "a block freed with no other stream at work is reused at once";
  // Small blocks share segments: two of them lie in one.
  std::shared_ptr<void> s1 = d.allocate(1000), s2 = d.allocate(1000);
  EXPECT_NE(s1.get(), s2.get());
}

TEST(Cuda, OutOfMemoryNamesWhatWasAskedAndHeld) {
  REQUIRE_GPU();
  try {
    device::get("cuda").allocate(size_t{1} << 50);
    ADD_FAILURE() << "no error";
  } catch (const std::bad_alloc& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cuda:0 is out of memory: asked for"), std::string::npos) << what;
    EXPECT_NE(what.find("in use by tensors"), std::string::npos) << what;
    EXPECT_NE(what.find("cached"), std::string::npos) << what;
  }
}

// An event recorded on one stream orders another stream's work after it, on the GPU.
TEST(Cuda, EventsOrderStreams) {
  REQUIRE_GPU();
  device::Device& d = device::get("cuda");
  Memory& gpu = d.memory();
  const Tensor host = iota(1 << 20);
  Tensor src = Tensor::empty(host.shape(), host.dtype(), gpu);
  Tensor dst = Tensor::empty(host.shape(), host.dtype(), gpu);
  device::Stream& compute = d.stream(device::StreamKind::kCompute);
  device::Stream& copy = d.stream(device::StreamKind::kDeviceToHost);
  auto written = d.create_event();
  compute.launch_and_record([&] { gpu.copy_from_host(src.data(), host.data(), host.nbytes()); }, *written);
  copy.wait(*written);
  auto copied = d.create_event();
  copy.launch_and_record([&] { gpu.copy_within(dst.data(), src.data(), src.nbytes()); }, *copied);
  copied->synchronize();
  EXPECT_TRUE(copied->query());
  EXPECT_TRUE(same(dst.copy_to(host_memory()), host));
}

// Ops through the VM: outputs on the GPU, values equal to the CPU's within rounding.
TEST(Cuda, OpsRunThroughTheVm) {
  REQUIRE_GPU();
  Memory& gpu = device::get("cuda").memory();
  const Tensor a = iota(4096), b = iota(4096);
  const std::vector<Tensor> on_cpu = apply_local(find_op("mul"), {a, b}, {});
  const std::vector<Tensor> on_gpu = apply_local(find_op("mul"), {a.copy_to(gpu), b.copy_to(gpu)}, {});
  EXPECT_EQ(&on_gpu[0].memory(), &gpu);
  EXPECT_TRUE(same(on_gpu[0].copy_to(host_memory()), on_cpu[0]));
}

}  // namespace
}  // namespace mf
