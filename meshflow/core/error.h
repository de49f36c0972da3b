// Copyright 2026 The meshflow Authors.
// The classes of meshflow's errors, where a caller may need to tell them apart (Python maps
// each to the builtin exception PyTorch raises for it, python/bindings.cc).
//
// OpError: an op's arguments break its contract (shapes that do not fit, a dtype it does not
// take, a bad attribute), found at the call or, for data-dependent checks, when its kernel
// runs. PyTorch's TORCH_CHECK failures, a RuntimeError there. Every such error of an op has a
// message starting with "[op] " (op_error, ops/op.h). Autograd's misuse errors (backward of a
// tensor that does not require grad, or a second time through freed values; requires_grad on
// a non-leaf; a hook on a tensor without grad) are OpErrors too, as torch's are RuntimeErrors;
// their messages name the call (backward(), requires_grad ...).
// IndexError: an OpError whose cause is an index out of range, a dim or an index value
// (PyTorch's IndexError).
// LinAlgError: an OpError whose cause is a linear-algebra op's data (a singular matrix, one
// not positive-definite, a decomposition that did not converge): torch.linalg.LinAlgError.
//
// CollectiveMismatchError: the ranks broke the rule of global tensors (every rank makes the
// same calls, with the same arguments, in the same order; code under `if rank == 0:` that
// computes on, reads or saves one), found when they agree (comm::agree) and raised on every
// rank together. A RuntimeError in Python, as torch's distributed errors (where a mismatched
// collective waits, then times out).
//
// All derive std::invalid_argument, the class every op error and agreement had before them:
// callers that catch that keep catching them.
// OutOfMemoryError: an allocation found no room on its device, in the device's memory or
// under its limit (Device::set_memory_limit), after the device's cache was freed and the
// allocation retried; the message names the device, the bytes asked for, in use and cached,
// and the limit, and contains " is out of memory" (errors agreed between ranks keep their
// class by it: is_out_of_memory). A std::bad_alloc, as C++ allocation failures are;
// torch.OutOfMemoryError (a RuntimeError) in Python.
// Plain value types; thread-safe.
#pragma once

#include <cstdint>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace mf {

class OpError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class IndexError : public OpError {
 public:
  using OpError::OpError;
};

class LinAlgError : public OpError {
 public:
  using OpError::OpError;
};

class CollectiveMismatchError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class OutOfMemoryError : public std::bad_alloc {
 public:
  explicit OutOfMemoryError(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

// Whether `message` is an OutOfMemoryError's (after a restatement that kept it whole).
inline bool is_out_of_memory(const std::string& message) { return message.find(" is out of memory") != std::string::npos; }

// "[op] message" as an IndexError, as op_error (ops/op.h) throws an OpError.
[[noreturn]] inline void index_error(const std::string& op, const std::string& message) {
  throw IndexError("[" + op + "] " + message);
}

// An error's class in this taxonomy as a value, to raise a message as that class elsewhere:
// restated in an op's own terms, or on the other ranks of an agreement (comm::agree).
enum class ErrorClass : int32_t { kInvalidArgument, kOpError, kIndexError, kLinAlgError, kCollectiveMismatch };

// e's class (kInvalidArgument for one outside the taxonomy).
inline ErrorClass class_of(const std::exception& e) {
  if (dynamic_cast<const IndexError*>(&e)) return ErrorClass::kIndexError;
  if (dynamic_cast<const LinAlgError*>(&e)) return ErrorClass::kLinAlgError;
  if (dynamic_cast<const OpError*>(&e)) return ErrorClass::kOpError;
  if (dynamic_cast<const CollectiveMismatchError*>(&e)) return ErrorClass::kCollectiveMismatch;
  return ErrorClass::kInvalidArgument;
}

[[noreturn]] inline void throw_as(ErrorClass c, const std::string& message) {
  switch (c) {
    case ErrorClass::kIndexError: throw IndexError(message);
    case ErrorClass::kLinAlgError: throw LinAlgError(message);
    case ErrorClass::kOpError: throw OpError(message);
    case ErrorClass::kCollectiveMismatch: throw CollectiveMismatchError(message);
    case ErrorClass::kInvalidArgument: break;
  }
  throw std::invalid_argument(message);
}

// Throws `message` as an error of e's class: a restated error (a composite op's own terms,
// its op's name prefixed) keeps its class.
[[noreturn]] inline void rethrow_restated(const std::invalid_argument& e, const std::string& message) {
  throw_as(class_of(e), message);
}

}  // namespace mf
