// Copyright 2026 The meshflow Authors.
#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "meshflow/device/device.h"
#include "meshflow/device/meta/meta_device.h"
#include "meshflow/device/testdev/testdev.h"
#ifdef MESHFLOW_CUDA
#include "meshflow/device/cuda/cuda_device.h"
#endif

namespace mf::device {
namespace {

struct Type {
  std::string name;
  DeviceFactory factory;
  std::function<int()> rank_index;
};

struct Registry {
  std::mutex mu;
  // The built-in types: the CPU (one device, whatever the index, as in PyTorch), the test
  // devices (testdev/testdev.h), the meta device (meta/meta_device.h: one, whatever the index)
  // and, where built with CUDA, the GPUs (cuda/cuda_device.h).
  std::vector<Type> types{{"cpu", [](int) -> Device& { return cpu(); }, {}},
                          {"testdev", [](int index) -> Device& { return testdev::device(index); }, {}},
                          {"meta", [](int) -> Device& { return meta::device(); }, {}},
#ifdef MESHFLOW_CUDA
                          {"cuda", [](int index) -> Device& { return cuda::device(index); }, &cuda::rank_device_index},
#endif
  };

  const Type* find(const std::string& type) {
    auto it = std::find_if(types.begin(), types.end(), [&](const Type& t) { return t.name == type; });
    return it == types.end() ? nullptr : &*it;
  }
};

Registry& registry() {
  static auto* r = new Registry;  // never destroyed: devices outlive static destruction
  return *r;
}

}  // namespace

void register_type(const std::string& type, DeviceFactory factory, std::function<int()> rank_index) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (type.empty()) throw std::invalid_argument("device: a device type needs a name");
  if (r.find(type)) throw std::invalid_argument("device: device type '" + type + "' is already registered");
  r.types.push_back({type, std::move(factory), std::move(rank_index)});
}

std::vector<std::string> types() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<std::string> out;
  for (const Type& t : r.types) out.push_back(t.name);
  return out;
}

bool is_registered(const std::string& type) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.find(type) != nullptr;
}

std::string unregistered_message(const std::string& type) {
  std::string names;
  for (const std::string& t : types()) names += (names.empty() ? "" : ", ") + t;
  return "'" + type + "' is not a registered device type; registered: " + names;
}

Device& of(const Memory& memory) {
  return &memory == &host_memory() ? cpu() : get(memory.device_type(), memory.device_index());  // the host: no lock
}

Device& get(const std::string& type, int index) {
  if (index < 0) throw std::invalid_argument("device: index " + std::to_string(index) + " is negative");
  DeviceFactory factory;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    if (const Type* t = r.find(type)) factory = t->factory;
  }
  if (!factory) throw std::invalid_argument("device: " + unregistered_message(type));
  return factory(index);
}

Device& for_placement(const std::string& type) {
  std::function<int()> rank_index;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    if (const Type* t = r.find(type)) rank_index = t->rank_index;
  }
  return get(type, rank_index ? rank_index() : 0);
}

}  // namespace mf::device
