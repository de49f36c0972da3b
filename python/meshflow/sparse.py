"""Sparse COO tensors as a port meets them (torch.sparse_coo_tensor, torch.sparse): a
SparseTensor holds its indices (int64, [sparse_dim, nnz]) and values ([nnz, *dense_dims]) as
two local CPU tensors, and its size. Every computation is one of meshflow's dense ops over
them (index_add, unique, index_select, mul), so gradients reach the values as torch's do
through to_dense() and sparse.mm; this module only keeps the bookkeeping. Global and GPU
tensors are refused (docs/porting.md).
"""
import functools
import math
import numbers

from . import _C, _dtype
from ._ops_port import layout as _layout
from ._tensor import Size as _Size, Tensor as _Tensor

__all__ = ["SparseTensor", "sparse_coo_tensor", "mm", "sum", "addmm", "softmax", "log_softmax"]

sparse_coo = _layout("sparse_coo")  # torch.sparse_coo


def _local_cpu(t, what):
    if not isinstance(t, _Tensor):
        raise TypeError(f"sparse_coo_tensor: {what} must be a Tensor, got {type(t).__name__}")
    if t.is_global or t.device.type != "cpu":
        raise NotImplementedError(f"sparse tensors are local CPU tensors here; {what} is "
                                  f"{'global' if t.is_global else 'on ' + str(t.device)}: use .to_local() / .cpu() "
                                  "first, or a dense tensor")
    return t


class SparseTensor:
    """A COO sparse tensor: torch's sparse_coo layout, with its methods that programs use."""
    is_sparse = True
    layout = sparse_coo

    def __init__(self, indices, values, size, coalesced=False):
        self._i, self._v, self._size, self._coalesced = indices, values, _Size(size), coalesced

    # ---- what it is
    @property
    def shape(self):
        return self._size

    def size(self, dim=None):
        return self._size if dim is None else self._size[dim]

    def dim(self):
        return len(self._size)

    ndim = property(dim)

    @property
    def dtype(self):
        return self._v.dtype

    @property
    def device(self):
        return self._v.device

    @property
    def requires_grad(self):
        return self._v.requires_grad

    is_global = False
    is_local = True

    def sparse_dim(self):
        return self._i.shape[0]

    def dense_dim(self):
        return self._v.ndim - 1

    def _nnz(self):
        return self._i.shape[1]

    def is_coalesced(self):
        return self._coalesced

    def _indices(self):
        return self._i

    def _values(self):
        return self._v

    def indices(self):
        self._check_coalesced("indices")
        return self._i

    def values(self):
        self._check_coalesced("values")
        return self._v

    def _check_coalesced(self, what):
        if not self._coalesced:
            raise RuntimeError(f"Cannot get {what} on an uncoalesced tensor, please call .coalesce() first")

    def numel(self):
        return math.prod(self._size)

    # ---- conversions
    def _linear(self):
        """Each entry's row-major position among the sparse dims (int64, [nnz])."""
        sizes = self._size[:self.sparse_dim()]
        linear = None
        for d, n in enumerate(sizes):
            linear = self._i[d] if linear is None else linear * n + self._i[d]
        return linear

    def to_dense(self):
        """The dense tensor: every entry's value added at its index (duplicates sum), a
        differentiable function of the values."""
        from ._ops_creation import zeros
        sparse_sizes = self._size[:self.sparse_dim()]
        flat = zeros(math.prod(sparse_sizes), *self._size[self.sparse_dim():], dtype=self.dtype)
        if self._nnz() == 0:
            return flat.reshape(tuple(self._size))
        return flat.index_add(0, self._linear(), self._v).reshape(tuple(self._size))

    def coalesce(self):
        """The same tensor with its indices sorted and unique, duplicates' values summed."""
        if self._coalesced:
            return self
        from ._ops_creation import zeros
        from ._ops_shape import stack
        if self._nnz() == 0:
            return SparseTensor(self._i, self._v, self._size, coalesced=True)
        unique, inverse = self._linear().unique(sorted=True, return_inverse=True)
        values = zeros(unique.shape[0], *self._v.shape[1:], dtype=self.dtype).index_add(0, inverse, self._v)
        rows = []
        for n in reversed(self._size[:self.sparse_dim()]):
            rows.append(unique % n)
            unique = unique // n
        return SparseTensor(stack(rows[::-1]), values, self._size, coalesced=True)

    def to_sparse(self):
        return self

    def detach(self):
        return SparseTensor(self._i, self._v.detach(), self._size, self._coalesced)

    def requires_grad_(self, requires_grad=True):
        self._v.requires_grad_(requires_grad)
        return self

    def clone(self):
        return SparseTensor(self._i.clone(), self._v.clone(), self._size, self._coalesced)

    def to(self, *args, **kwargs):
        values = self._v.to(*args, **kwargs)
        _local_cpu(values, "the result")
        return SparseTensor(self._i, values, self._size, self._coalesced)

    def float(self):
        return self.to(_dtype.float32)

    def double(self):
        return self.to(_dtype.float64)

    def cpu(self):
        return self

    def t(self):
        if self.sparse_dim() != 2 or self.dense_dim() != 0:
            raise RuntimeError("t() expects a 2-D sparse tensor")
        return SparseTensor(self._i.flip(0), self._v, (self._size[1], self._size[0]))

    # ---- arithmetic
    def _scaled(self, f):
        return SparseTensor(self._i, f(self._v), self._size, self._coalesced)

    def __mul__(self, other):
        if isinstance(other, numbers.Number) or (isinstance(other, _Tensor) and other.ndim == 0):
            return self._scaled(lambda v: v * other)
        raise NotImplementedError("sparse * tensor: only a number or a 0-d tensor multiplies a sparse tensor here")

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, numbers.Number) or (isinstance(other, _Tensor) and other.ndim == 0):
            return self._scaled(lambda v: v / other)
        raise NotImplementedError("sparse / tensor: only a number or a 0-d tensor divides a sparse tensor here")

    def __neg__(self):
        return self._scaled(lambda v: -v)

    def __add__(self, other):
        from ._ops_shape import cat
        if isinstance(other, SparseTensor):
            if tuple(other._size) != tuple(self._size) or other.sparse_dim() != self.sparse_dim():
                raise RuntimeError(f"sparse + sparse: sizes {list(self._size)} and {list(other._size)} differ")
            return SparseTensor(cat([self._i, other._i], 1), cat([self._v, other._v.to(self.dtype)], 0),
                                self._size).coalesce()
        if isinstance(other, _Tensor):
            return self.to_dense() + other
        raise TypeError(f"sparse + {type(other).__name__} is not supported")

    __radd__ = __add__

    def __sub__(self, other):
        return self + (-other)

    def __matmul__(self, other):
        return mm(self, other)

    def __repr__(self):
        pad = " " * 7
        indices = repr(self._i).replace("\n", "\n" + pad)
        values = repr(self._v).replace("\n", "\n" + pad)
        return (f"tensor(indices={indices},\n{pad}values={values},\n{pad}size={tuple(self._size)}, "
                f"nnz={self._nnz()}, layout=torch.sparse_coo)")


def sparse_coo_tensor(indices, values, size=None, *, dtype=None, device=None, requires_grad=False,
                      check_invariants=None, is_coalesced=None):
    """torch.sparse_coo_tensor: entries at `indices` ([sparse_dim, nnz], integers) with
    `values` ([nnz, *dense_dims]); size inferred as each sparse dim's largest index + 1 where
    not given."""
    from ._tensor import tensor
    indices = indices if isinstance(indices, _Tensor) else tensor(indices, dtype=_dtype.int64)
    values = values if isinstance(values, _Tensor) else tensor(values, dtype=dtype)
    _local_cpu(indices, "indices")
    _local_cpu(values, "values")
    if device is not None and str(device).split(":")[0] != "cpu":
        raise NotImplementedError(f"sparse tensors are local CPU tensors here; device={device!r} is not supported")
    if dtype is not None:
        values = values.to(dtype)
    if indices.dtype.is_floating_point or indices.dtype == _dtype.bool_:
        raise RuntimeError(f"sparse_coo_tensor: indices must be an int64 tensor, got {indices.dtype}")
    indices = indices.long()
    if indices.ndim != 2 or indices.shape[1] != values.shape[0]:
        raise RuntimeError(f"sparse_coo_tensor: indices of shape {list(indices.shape)} and values of shape "
                           f"{list(values.shape)}: expected indices [sparse_dim, nnz] and values [nnz, ...]")
    sparse_dim = indices.shape[0]
    if size is None:
        highest = indices.amax(1).tolist() if indices.shape[1] else [-1] * sparse_dim
        size = [h + 1 for h in highest] + list(values.shape[1:])
    size = tuple(int(s) for s in size)
    if len(size) != sparse_dim + values.ndim - 1:
        raise RuntimeError(f"sparse_coo_tensor: number of dimensions must be sparse_dim ({sparse_dim}) + dense_dim "
                           f"({values.ndim - 1}), but got {len(size)}")
    if tuple(values.shape[1:]) != size[sparse_dim:]:
        raise RuntimeError(f"sparse_coo_tensor: values' dense dims {list(values.shape[1:])} must equal "
                           f"size's {list(size[sparse_dim:])}")
    if indices.shape[1]:
        low, high = indices.amin(1).tolist(), indices.amax(1).tolist()
        for d in range(sparse_dim):
            if low[d] < 0 or high[d] >= size[d]:
                raise RuntimeError(f"sparse_coo_tensor: index {high[d] if high[d] >= size[d] else low[d]} of "
                                   f"dim {d} is out of bounds for size {size[d]}")
    if requires_grad:
        values = values.detach().requires_grad_()
    return SparseTensor(indices, values, size, coalesced=bool(is_coalesced))


def mm(sparse, dense):
    """torch.sparse.mm: a 2-D sparse tensor times a dense matrix, a dense matrix (times a
    sparse one, a sparse one); the gradient reaches the sparse tensor's values and the dense
    matrix."""
    if not isinstance(sparse, SparseTensor):
        from ._ops_matmul import mm as dense_mm
        return dense_mm(sparse, dense)
    if sparse.sparse_dim() != 2 or sparse.dense_dim() != 0:
        raise RuntimeError(f"sparse.mm: expected a 2-D sparse matrix, got sparse_dim {sparse.sparse_dim()} and "
                           f"dense_dim {sparse.dense_dim()}")
    if isinstance(dense, SparseTensor):  # sparse @ sparse is sparse, as torch's
        return mm(sparse, dense.to_dense()).to_sparse()
    _local_cpu(dense, "the dense operand")
    vector = dense.ndim == 1
    if vector:
        dense = dense.unsqueeze(1)
    if dense.ndim != 2 or dense.shape[0] != sparse.shape[1]:
        raise RuntimeError(f"sparse.mm: shapes {list(sparse.shape)} and {list(dense.shape)} cannot be multiplied")
    from ._ops_creation import zeros
    rows, cols = sparse._i[0], sparse._i[1]
    terms = sparse._v.unsqueeze(1) * dense.index_select(0, cols)
    out = zeros(sparse.shape[0], dense.shape[1], dtype=terms.dtype).index_add(0, rows, terms)
    return out.squeeze(1) if vector else out


def addmm(input, sparse, dense, *, beta=1, alpha=1):
    """torch.sparse.addmm: beta * input + alpha * (sparse @ dense)."""
    return beta * input + alpha * mm(sparse, dense)


_builtin_sum = sum


def sum(input, dim=None, dtype=None):
    """torch.sparse.sum: of every element, a 0-d dense tensor; over some dims, a sparse tensor
    of the others (coalesced), or a dense one where no sparse dim is left."""
    if not isinstance(input, SparseTensor):
        return input.sum() if dim is None else input.sum(dim)
    values = input._v if dtype is None else input._v.to(dtype)
    if dim is None:
        return values.sum()
    dims = sorted({d % input.ndim for d in ((dim,) if isinstance(dim, int) else dim)})
    sparse_dims = [d for d in dims if d < input.sparse_dim()]
    dense_dims = [d - input.sparse_dim() + 1 for d in dims if d >= input.sparse_dim()]
    if dense_dims:
        values = values.sum(dense_dims)
    keep = [d for d in range(input.sparse_dim()) if d not in sparse_dims]
    size = [n for d, n in enumerate(input.shape) if d not in dims]
    if not keep:
        return values.sum(0)
    if not sparse_dims:
        return SparseTensor(input._i, values, size, input._coalesced)
    return SparseTensor(input._i[keep], values, size).coalesce()


def softmax(input, dim, *, dtype=None):
    """torch.sparse.softmax: softmax along dim over the specified entries alone (the others
    count as -inf and stay unspecified): a coalesced tensor of the input's indices."""
    return _softmax(input, dim, dtype, log=False)


def log_softmax(input, dim, *, dtype=None):
    """torch.sparse.log_softmax: as softmax, its log."""
    return _softmax(input, dim, dtype, log=True)


def _softmax(input, dim, dtype, log):
    if not isinstance(input, SparseTensor):
        return input.log_softmax(dim, dtype=dtype) if log else input.softmax(dim, dtype=dtype)
    from ._ops_creation import full, zeros
    x = input.coalesce()
    values = x._v if dtype is None else x._v.to(dtype)
    dim %= x.ndim
    if dim >= x.sparse_dim():  # along a dense dim: each entry's own slice
        d = dim - x.sparse_dim() + 1
        return SparseTensor(x._i, values.log_softmax(d) if log else values.softmax(d), x._size, coalesced=True)
    # the entries of one softmax share their indices on the other sparse dims (a group)
    others = [d for d in range(x.sparse_dim()) if d != dim]
    group = zeros(x._nnz(), dtype=_dtype.int64)
    for d in others:
        group = group * x._size[d] + x._i[d]
    shape = (math.prod(x._size[d] for d in others), *values.shape[1:])
    spread = group.reshape(-1, *[1] * (values.ndim - 1)).expand(values.shape)
    # each group's max, to shift by (softmax does not change with it, so no gradient flows there)
    most = full(shape, -math.inf, dtype=values.dtype).scatter_reduce(0, spread, values.detach(), "amax")
    shifted = values - most[group]
    total = zeros(shape, dtype=values.dtype).index_add(0, group, shifted.exp())
    out = shifted - total[group].log() if log else shifted.exp() / total[group]
    return SparseTensor(x._i, out, x._size, coalesced=True)


def _to_sparse(self, sparse_dim=None, layout=None):
    """Tensor.to_sparse: the nonzero elements as a coalesced COO tensor (of every dim; with
    sparse_dim, of the leading ones, each entry a slice of the rest)."""
    if layout not in (None, sparse_coo):
        raise NotImplementedError(f"to_sparse(layout={layout}): only sparse_coo is supported")
    _local_cpu(self, "the tensor")
    sparse_dim = self.ndim if sparse_dim is None else sparse_dim
    lead = self.reshape(*self.shape[:sparse_dim], -1) if sparse_dim < self.ndim else self
    nonzero = lead != 0
    if sparse_dim < self.ndim:
        nonzero = nonzero.any(-1)
    indices = nonzero.nonzero().t()
    values = self[tuple(indices[d] for d in range(sparse_dim))] if sparse_dim else self.unsqueeze(0)
    return SparseTensor(indices, values, self.shape, coalesced=True)


def _install(mf):
    """Attaches the sparse names to meshflow: sparse_coo_tensor, sparse_coo, Tensor.to_sparse,
    and mm / matmul taking a sparse operand as torch's do."""
    from . import _ops_matmul
    dense_mm, dense_matmul = _ops_matmul.mm, mf.matmul

    def with_sparse(dense, a, b, **kwargs):
        if isinstance(a, SparseTensor):
            return mm(a, b)
        if isinstance(b, SparseTensor):  # dense @ sparse = (sparse^T @ dense^T)^T
            return mm(b.t(), a.t()).t()
        return dense(a, b, **kwargs)

    mm_ = functools.update_wrapper(lambda input, mat2, **kwargs: with_sparse(dense_mm, input, mat2, **kwargs), dense_mm)
    matmul_ = functools.update_wrapper(lambda input, other, **kwargs: with_sparse(dense_matmul, input, other, **kwargs),
                                       dense_matmul)
    mf.mm, mf.matmul, mf.spmm = mm_, matmul_, mm_  # torch.spmm: mm of a sparse (or dense) first operand
    # dense @ sparse: the C method keeps its one-call path for two Tensors, and falls back to
    # a matmul that takes a sparse operand (a SparseTensor is no Tensor, so it falls back)
    fallback = functools.update_wrapper(lambda self, other: with_sparse(_ops_matmul.matmul, self, other),
                                        _ops_matmul.matmul)
    _Tensor.__matmul__ = _Tensor.matmul = functools.update_wrapper(
        _C.tensor_method("matrices", "matmul", None, fallback), _ops_matmul.matmul)
    mf.sparse_coo_tensor, mf.sparse_coo = sparse_coo_tensor, sparse_coo
    _Tensor.to_sparse = _to_sparse
    _Tensor.to_sparse_coo = _to_sparse
