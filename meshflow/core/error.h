// Copyright 2026 The meshflow Authors.
// The classes of meshflow's errors, where a caller may need to tell them apart (Python maps
// each to the builtin exception PyTorch raises for it, python/bindings.cc).
//
// OpError: an op's arguments break its contract (shapes that do not fit, a dtype it does not
// take, a bad attribute), found at the call or, for data-dependent checks, when its kernel
// runs. PyTorch's TORCH_CHECK failures, a RuntimeError there. Every such error's message
// starts with "[op] " (op_error, ops/op.h).
// IndexError: an OpError whose cause is an index out of range, a dim or an index value
// (PyTorch's IndexError).
// LinAlgError: an OpError whose cause is a linear-algebra op's data (a singular matrix, one
// not positive-definite, a decomposition that did not converge): torch.linalg.LinAlgError.
//
// Both derive std::invalid_argument, the class every op error had before them: callers that
// catch that keep catching them. Plain value types; thread-safe.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>

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

// "[op] message" as an IndexError, as op_error (ops/op.h) throws an OpError.
[[noreturn]] inline void index_error(const std::string& op, const std::string& message) {
  throw IndexError("[" + op + "] " + message);
}

// Throws `message` as an error of e's class in this taxonomy (std::invalid_argument for one
// outside it): a restated error (a composite op's own terms, its op's name prefixed) keeps
// its class.
[[noreturn]] inline void rethrow_restated(const std::invalid_argument& e, const std::string& message) {
  if (dynamic_cast<const IndexError*>(&e)) throw IndexError(message);
  if (dynamic_cast<const LinAlgError*>(&e)) throw LinAlgError(message);
  if (dynamic_cast<const OpError*>(&e)) throw OpError(message);
  throw std::invalid_argument(message);
}

}  // namespace mf
