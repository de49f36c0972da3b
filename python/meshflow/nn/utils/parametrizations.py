"""torch.nn.utils.parametrizations: weight_norm and spectral_norm as parametrizations
(nn.utils.parametrize), with torch's names: weight_norm's originals are
parametrizations.weight.original0 (g, the norms) and original1 (v, the direction);
spectral_norm's power-iteration vectors are the buffers parametrizations.weight.0._u and _v
(drawn from meshflow's generator, so not torch's values; 15 iterations at registration, then
n_power_iterations at each read in training, as torch's); orthogonal as torch's with its
trivialization (its buffer parametrizations.weight.0.base; use_trivialization=False is not
supported)."""
from ..._tensor import no_grad
from ..modules import Module
from . import _norm_except_dim
from . import parametrize

__all__ = ["weight_norm", "spectral_norm", "orthogonal"]


class _WeightNorm(Module):
    def __init__(self, dim=0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return weight_v * (weight_g / _norm_except_dim(weight_v, self.dim))

    def right_inverse(self, weight):
        return _norm_except_dim(weight, self.dim), weight


def weight_norm(module, name="weight", dim=0):
    """module's `name` as g * v / |v| (norms over every dim but `dim`; over all for None).
    Returns module."""
    return parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)


class _SpectralNorm(Module):
    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        from .. import functional as F
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError(f"Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            mat = self._matrix(weight.detach())
            with no_grad():
                self.register_buffer("_u", F.normalize(mat.new_empty(mat.shape[0]).normal_(0, 1), dim=0, eps=eps))
                self.register_buffer("_v", F.normalize(mat.new_empty(mat.shape[1]).normal_(0, 1), dim=0, eps=eps))
            self._power_method(mat, 15)

    def _matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.ndim) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, mat, iterations):
        from .. import functional as F
        with no_grad():
            for _ in range(iterations):
                self._u.copy_(F.normalize(mat.mv(self._v), dim=0, eps=self.eps))
                self._v.copy_(F.normalize(mat.t().mv(self._u), dim=0, eps=self.eps))

    def forward(self, weight):
        from .. import functional as F
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        mat = self._matrix(weight)
        if self.training:
            self._power_method(mat.detach(), self.n_power_iterations)
        # u and v as they are now: a later read's power iteration must not reach this graph
        u, v = self._u.clone(), self._v.clone()
        return weight / u.dot(mat.mv(v))

    def right_inverse(self, value):
        return value


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """module's `name` divided by its largest singular value (estimated by power iteration; dim:
    the output dim, 0, or 1 for the transposed convolutions). Returns module."""
    weight = getattr(module, name, None)
    if weight is None:
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if type(module).__name__.startswith("ConvTranspose") else 0
    return parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))


def _make_orthogonal(A):
    """The Q of A = QR with R's diagonal positive (torch's geqrf + householder_product)."""
    from ... import linalg
    Q, R = linalg.qr(A)
    return Q * R.diagonal(dim1=-2, dim2=-1).sign().unsqueeze(-2)


def _is_orthogonal(Q):
    from ... import linalg
    k = Q.shape[-1]
    eps = 10 * Q.shape[-2] * (1.1920928955078125e-07 if Q.dtype.name == "float32" else 2.220446049250313e-16)
    return bool((Q.transpose(-2, -1) @ Q - linalg._eye_like(Q, k)).abs().amax() <= eps)


class _Orthogonal(Module):
    """torch's orthogonal parametrization with its trivialization: the weight is base @ map(X),
    map one of matrix_exp (of X's skew-symmetric part), cayley, householder; base is the
    orthogonalized weight given to right_inverse, which sets X to -I (map(-I) = I)."""

    def __init__(self, weight, orthogonal_map):
        super().__init__()
        self.shape = tuple(weight.shape)
        self.orthogonal_map = orthogonal_map
        self.register_buffer("base", None)

    def forward(self, X):
        from ... import linalg
        from ..._ops_shape import cat
        n, k = X.shape[-2], X.shape[-1]
        transposed = n < k
        if transposed:
            X = X.transpose(-2, -1)
            n, k = k, n
        if self.orthogonal_map in ("matrix_exp", "cayley"):
            X = X.tril()
            if n != k:
                X = cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], n, n - k)], dim=-1)
            A = X - X.transpose(-2, -1)
            if self.orthogonal_map == "matrix_exp":
                Q = linalg.matrix_exp(A)
            else:  # (I + A / 2)(I - A / 2)^-1, as torch's solve
                identity = linalg._eye_like(A, n)
                Q = linalg.solve(identity - A * 0.5, identity + A * 0.5)
            if n != k:
                Q = Q[..., :k]
        else:
            A = X.tril(-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = linalg.householder_product(A, tau)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).detach().int().unsqueeze(-2)
        Q = self.base @ Q
        return Q.transpose(-2, -1) if transposed else Q

    def right_inverse(self, Q):
        from ..._ops_creation import zeros_like
        from ..._ops_random import randn
        from ..._ops_shape import cat
        if tuple(Q.shape) != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. Got a tensor of shape "
                             f"{tuple(Q.shape)}.")
        with no_grad():
            Q_init = Q
            n, k = Q.shape[-2], Q.shape[-1]
            if n < k:
                Q = Q.transpose(-2, -1)
                n, k = k, n
            if n == k:
                Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
            else:  # completed into a full n x n orthogonal matrix (random columns: not torch's values)
                Q = _make_orthogonal(cat([Q, randn(*Q.shape[:-2], n, n - k, dtype=Q.dtype)], dim=-1))
            self.base = Q
            neg_identity = zeros_like(Q_init)
            neg_identity.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_identity


def orthogonal(module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    """module's `name` (a matrix, or a batch) made orthogonal: base @ map(X), as torch's
    (orthogonal_map "matrix_exp", "cayley" or "householder"; by default matrix_exp for a
    square weight, else householder). Only with use_trivialization (torch's default). Returns
    module."""
    from ..._tensor import Tensor
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = "matrix_exp" if weight.shape[-2] == weight.shape[-1] else "householder"
    if orthogonal_map not in ("matrix_exp", "cayley", "householder"):
        raise ValueError(f'orthogonal_map has to be one of "matrix_exp", "cayley", "householder". Got: '
                         f'{orthogonal_map}')
    if not use_trivialization:
        raise NotImplementedError("parametrizations.orthogonal: use_trivialization=False is not supported by "
                                  "meshflow; expected use_trivialization=True (torch's default)")
    return parametrize.register_parametrization(module, name, _Orthogonal(weight, orthogonal_map), unsafe=True)
