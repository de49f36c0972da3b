// Copyright 2026 The meshflow Authors.
// MPI return codes as exceptions. meshflow's communicators (and MPI_COMM_WORLD, set at
// init) return errors instead of aborting the job (MPI_ERRORS_RETURN), so every MPI call
// goes through check_mpi: an error becomes std::runtime_error naming the call and MPI's
// own words, which the VM raises in the op that issued it. Thread-safe.
#pragma once

#include <mpi.h>

#include <stdexcept>
#include <string>

namespace mf::comm {

inline void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  throw std::runtime_error(std::string("mpi: ") + what + " failed: " + std::string(msg, len));
}

}  // namespace mf::comm
