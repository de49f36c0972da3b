// Copyright 2026 The meshflow Authors.
#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "meshflow/device/device.h"
#include "meshflow/device/testdev/testdev.h"

namespace mf::device {
namespace {

struct Registry {
  std::mutex mu;
  // The built-in types: the CPU (one device, whatever the index, as in PyTorch) and the test
  // devices (testdev/testdev.h).
  std::vector<std::pair<std::string, DeviceFactory>> types{{"cpu", [](int) -> Device& { return cpu(); }},
                                                          {"testdev", [](int index) -> Device& { return testdev::device(index); }}};

  const DeviceFactory* find(const std::string& type) {
    auto it = std::find_if(types.begin(), types.end(), [&](const auto& t) { return t.first == type; });
    return it == types.end() ? nullptr : &it->second;
  }
};

Registry& registry() {
  static auto* r = new Registry;  // never destroyed: devices outlive static destruction
  return *r;
}

}  // namespace

void register_type(const std::string& type, DeviceFactory factory) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (type.empty()) throw std::invalid_argument("device: a device type needs a name");
  if (r.find(type)) throw std::invalid_argument("device: device type '" + type + "' is already registered");
  r.types.emplace_back(type, std::move(factory));
}

std::vector<std::string> types() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<std::string> out;
  for (const auto& t : r.types) out.push_back(t.first);
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
    if (const DeviceFactory* f = r.find(type)) factory = *f;
  }
  if (!factory) throw std::invalid_argument("device: " + unregistered_message(type));
  return factory(index);
}

}  // namespace mf::device
