// Copyright 2026 The meshflow Authors.
#include "meshflow/ops/kernel_util.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "meshflow/core/error.h"
#include "meshflow/ops/fill_value.h"

namespace mf::kernel {

int64_t normalize_dim(const std::string& op, int64_t dim, int64_t ndim) {
  const int64_t d = dim < 0 ? dim + ndim : dim;
  if (d < 0 || d >= ndim) {
    index_error(op, "dim " + std::to_string(dim) + " is out of range for a tensor of " + std::to_string(ndim) +
                        " dims; expected a dim in [" + std::to_string(-ndim) + ", " + std::to_string(ndim) + ")");
  }
  return d;
}

void expect_inputs(const std::string& op, const std::vector<TensorMeta>& inputs, size_t n) {
  if (inputs.size() != n) {
    op_error(op, "takes " + std::to_string(n) + " inputs, got " + std::to_string(inputs.size()));
  }
}

void check_fits(const std::string& op, const std::string& key, const Attrs& attrs, DType dtype) {
  if (is_floating(dtype) || is_complex(dtype) || dtype == DType::kBool) return;  // bool: any number, nonzero is true
  visit_numbers(dtype, [&](auto v) {
    using T = decltype(v);
    constexpr T lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
    std::string shown;
    for (const auto& [k, value] : attrs.items()) {
      if (k != key) continue;
      if (const int64_t* i = std::get_if<int64_t>(&value)) {
        if (*i >= lo && *i <= hi) return;
        shown = std::to_string(*i);
      } else {
        // [lowest, max + 1), truncated toward zero as torch's conversion (both bounds exact).
        const double x = attrs.get_float(key);
        if (x >= static_cast<double>(lo) && x < static_cast<double>(hi) + 1.0) return;
        shown = number_text(x);
      }
    }
    if (shown.empty()) return;  // absent: the op's own reading reports it
    op_error(op, key + " " + shown + " does not fit in " + dtype_name(dtype) + "; expected a value in [" +
                     std::to_string(lo) + ", " + std::to_string(hi) + "]");
  });
}

void check_converts(const std::string& op, const std::string& key, const Attrs& attrs, DType dtype) {
  if (!is_floating(dtype)) return check_fits(op, key, attrs, dtype);
  const double x = attrs.get_float(key);
  const double max = dtype == DType::kFloat16    ? kHalfMax
                     : dtype == DType::kBFloat16 ? 0x1.fep127
                     : dtype == DType::kFloat32  ? std::numeric_limits<float>::max()
                                                 : std::numeric_limits<double>::max();
  if (std::isfinite(x) && std::fabs(x) > max) {
    op_error(op, key + " " + number_text(x) + " cannot be converted to type " + dtype_name(dtype) +
                     " without overflow; expected a finite value in [-" + number_text(max) + ", " + number_text(max) +
                     "], an infinity or NaN");
  }
}

std::string number_text(double x) {
  char text[64];  // fixed notation below 1e16 needs at most 17 digits before the point, 21 after
  const double size = std::fabs(x);
  const bool fixed = size == 0 || (size >= 1e-4 && size < 1e16);  // where Python's repr writes no exponent
  const auto [end, error] = fixed ? std::to_chars(text, text + sizeof(text), x, std::chars_format::fixed)
                                  : std::to_chars(text, text + sizeof(text), x);
  return error == std::errc() ? std::string(text, end) : std::to_string(x);
}

void expect_same_dtype(const std::string& op, const TensorMeta& a, const TensorMeta& b) {
  if (a.dtype != b.dtype) {
    op_error(op, std::string("dtypes differ: ") + dtype_name(a.dtype) + " and " + dtype_name(b.dtype) +
                     "; expected one dtype (cast one input first)");
  }
}

Shape broadcast_shapes(const std::string& op, const Shape& a, const Shape& b) {
  const size_t nd = std::max(a.size(), b.size());
  Shape out(nd);
  for (size_t i = 0; i < nd; ++i) {
    const int64_t da = i < nd - a.size() ? 1 : a[i - (nd - a.size())];
    const int64_t db = i < nd - b.size() ? 1 : b[i - (nd - b.size())];
    if (da != db && da != 1 && db != 1) {
      op_error(op, "shapes " + to_string(a) + " and " + to_string(b) + " cannot be broadcast together (dim " +
                       std::to_string(i) + ": " + std::to_string(da) + " vs " + std::to_string(db) + ")");
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

void expect_broadcasts_to(const std::string& op, const Shape& have, const Shape& shape, const std::string& what,
                          const std::string& whose) {
  const size_t lead = shape.size() - std::min(have.size(), shape.size());
  bool fits = have.size() <= shape.size();
  for (size_t i = 0; fits && i < have.size(); ++i) fits = have[i] == 1 || have[i] == shape[lead + i];
  if (!fits) {
    op_error(op, what + " has shape " + to_string(have) + "; expected " + whose + " shape " + to_string(shape) +
                     " or one that broadcasts to it");
  }
}

std::vector<Signature> broadcast_split_signatures(const std::vector<TensorMeta>& inputs, const Shape& out,
                                                  size_t n_outputs) {
  std::vector<Signature> sigs;
  const int64_t nd = static_cast<int64_t>(out.size());
  for (int64_t k = 0; k < nd; ++k) {
    Signature s;
    for (const TensorMeta& in : inputs) {
      const int64_t offset = nd - static_cast<int64_t>(in.shape.size());
      const int64_t d = k - offset;
      const bool has_dim = d >= 0 && !(in.shape[d] == 1 && out[k] != 1);
      s.inputs.push_back(has_dim ? Sbp::split(static_cast<int>(d)) : Sbp::broadcast());
    }
    s.outputs.assign(n_outputs, Sbp::split(static_cast<int>(k)));
    sigs.push_back(s);
  }
  return sigs;
}

Shape broadcast_strides(const Shape& shape, const Shape& out) {
  const size_t nd = out.size(), offset = nd - shape.size();
  Shape strides(nd, 0);
  int64_t stride = 1;
  for (int64_t i = static_cast<int64_t>(shape.size()) - 1; i >= 0; --i) {
    strides[i + offset] = shape[i] == 1 && out[i + offset] != 1 ? 0 : stride;
    stride *= shape[i];
  }
  return strides;
}

void collapse_dims(Shape& shape, const std::vector<Shape*>& strides) {
  size_t kept = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    const bool merges = kept > 0 && std::all_of(strides.begin(), strides.end(), [&](const Shape* s) {
                          return (*s)[kept - 1] == (*s)[d] * shape[d];
                        });
    const size_t at = merges ? kept - 1 : kept++;
    shape[at] = merges ? shape[at] * shape[d] : shape[d];
    for (Shape* s : strides) (*s)[at] = (*s)[d];
  }
  shape.resize(kept);
  for (Shape* s : strides) s->resize(kept);
}

int64_t piece_length(int64_t rows, int64_t inner) {
  constexpr int64_t kTasks = 64, kShortest = 4096;  // enough pieces to balance; none too short to pay
  if (rows >= kTasks || inner <= kShortest) return inner;
  const int64_t pieces = std::min((kTasks + rows - 1) / rows, inner / kShortest);
  return (inner + pieces - 1) / pieces;
}

std::vector<Signature> split_alike_signatures(size_t dims, size_t n_inputs, size_t n_outputs) {
  std::vector<Signature> sigs;
  for (size_t k = 0; k < dims; ++k) {
    const Sbp s = Sbp::split(static_cast<int>(k));
    sigs.push_back({std::vector<Sbp>(n_inputs, s), std::vector<Sbp>(n_outputs, s)});
  }
  return sigs;
}

}  // namespace mf::kernel
