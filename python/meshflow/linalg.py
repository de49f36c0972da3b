"""meshflow.linalg: torch.linalg's norms (composed of reductions, so they work on global
tensors in every layout), and its solvers and decompositions on batches of matrices
[..., m, n], float32 and float64: solve, inv, det, slogdet, cholesky, qr, eig, eigvals, eigh,
eigvalsh, svd, svdvals, lstsq, lu_factor (the C++ ops linalg_* of meshflow/ops/linalg.cc: LAPACK on the CPU, each
rank its own matrices where a batch dim is split). A singular matrix, one not positive-definite
or a decomposition that does not converge raises LinAlgError, a RuntimeError as torch's.
Gradients: solve, inv, det, slogdet, cholesky, eigh (of A's symmetric perturbations), svd
(full_matrices=False); qr, eig, lstsq and lu_factor have none yet and refuse inputs that
require grad (lu_solve differentiates as its triangular solves).
torch's top-level spellings (inverse, det, logdet, slogdet and the Tensor methods) are
bound at the end."""
import builtins

from . import _C, _dtype
from ._tensor import Tensor, apply, is_grad_enabled
from ._function import Function as _Function
from .return_types import named as _returns

__all__ = ["norm", "vector_norm", "matrix_norm", "LinAlgError", "solve", "inv", "det", "slogdet", "cholesky", "qr",
           "eig", "eigvals", "eigh", "eigvalsh", "svd", "svdvals", "lstsq", "cross", "matmul", "diagonal", "vecdot", "multi_dot",
           "matrix_power", "pinv", "matrix_rank", "cond", "solve_triangular", "inv_ex", "cholesky_ex", "solve_ex",
           "vander", "matrix_exp", "householder_product", "lu_factor", "lu_factor_ex", "lu", "lu_solve"]

LinAlgError = _C.LinAlgError


def vector_norm(x, ord=2, dim=None, keepdim=False, dtype=None):
    """The ord-norm of x's elements (over `dim`, or all of them): ord a number, inf or -inf;
    mf.norm's (one definition), its gradient 0 where the norm is 0."""
    from ._ops_reduce import norm
    if dtype is not None:
        x = x.to(dtype)
    return norm(x, ord, dim, keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, dtype=None):
    """The Frobenius norm ('fro'), the max column (1) / row (inf) sum norm, or from the singular
    values the spectral (2, -2) or nuclear ('nuc') norm, over the last two dims."""
    if ord == "fro":
        return vector_norm(A, 2, dim=dim, keepdim=keepdim, dtype=dtype)
    rows, cols = dim
    if ord in (1, -1):
        sums = A.abs().sum(dim=rows, keepdim=True)
        out = sums.amax(dim=cols, keepdim=True) if ord == 1 else sums.amin(dim=cols, keepdim=True)
    elif ord in (float("inf"), float("-inf")):
        sums = A.abs().sum(dim=cols, keepdim=True)
        out = sums.amax(dim=rows, keepdim=True) if ord > 0 else sums.amin(dim=rows, keepdim=True)
    elif ord in (2, -2, "nuc"):  # from the singular values (svdvals: CPU, LAPACK)
        r, c = rows % A.ndim, cols % A.ndim
        moved = A.movedim((r, c), (-2, -1))
        S = svdvals(moved)
        out = S.amax(-1) if ord == 2 else S.amin(-1) if ord == -2 else S.sum(-1)
        if keepdim:
            out = out.unsqueeze(builtins.min(r, c)).unsqueeze(builtins.max(r, c))
        return out
    else:
        raise ValueError(f"matrix_norm: ord={ord!r}; expected 'fro', 'nuc', 1, -1, 2, -2, inf or -inf")
    return out if keepdim else out.squeeze(builtins.max(rows % A.ndim, cols % A.ndim)).squeeze(
        builtins.min(rows % A.ndim, cols % A.ndim))


def norm(A, ord=None, dim=None, keepdim=False, dtype=None):
    """torch.linalg.norm: the 2-norm of a vector, the Frobenius norm of a matrix (ord None),
    or the given ord over `dim`."""
    if ord is None:
        return vector_norm(A, 2, dim=dim, keepdim=keepdim, dtype=dtype)
    if isinstance(dim, int) or (dim is None and A.ndim == 1):
        return vector_norm(A, ord, dim=dim, keepdim=keepdim, dtype=dtype)
    return matrix_norm(A, ord, dim=(-2, -1) if dim is None else dim, keepdim=keepdim, dtype=dtype)


# ---------------------------------------------------------------------------------------------
# Solvers and decompositions: torch.return_types' fields.

_Slogdet = _returns("linalg_slogdet", ("sign", "logabsdet"))
_QR = _returns("linalg_qr", ("Q", "R"))
_Eig = _returns("linalg_eig", ("eigenvalues", "eigenvectors"))
_Eigh = _returns("linalg_eigh", ("eigenvalues", "eigenvectors"))
_SVD = _returns("linalg_svd", ("U", "S", "Vh"))
_Lstsq = _returns("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))


def _batched(A, B):
    """A and B with their batch dims broadcast (the ops take equal ones)."""
    from ._api import broadcast_shapes  # _api imports this module
    batch = list(broadcast_shapes(tuple(A.shape[:-2]), tuple(B.shape[:-2])))
    if list(A.shape[:-2]) != batch:
        A = A.expand(*batch, *A.shape[-2:])
    if list(B.shape[:-2]) != batch:
        B = B.expand(*batch, *B.shape[-2:])
    return A, B


def _no_grad_yet(name, *tensors):
    if is_grad_enabled() and any(t.requires_grad for t in tensors):
        raise NotImplementedError(f"[linalg_{name}] has no gradient yet; expected inputs that do not require grad "
                                  "(detach them, or use mf.no_grad())")


def solve(A, B, *, left=True):
    """X with A X = B (left) or X A = B; B a batch of vectors when B.ndim == 1 or B's shape is
    A's batch and n."""
    return _solve(A, B, left, {})[0]


def _solve(A, B, left, attrs):
    """linalg_solve's outputs (X, and info with attrs' `ex`) for solve's arguments."""
    if not left:
        X, *info = _solve(A.transpose(-2, -1), B.transpose(-2, -1), True, attrs)
        return [X.transpose(-2, -1), *info]
    given = (A, B)
    vector = B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))
    if vector:
        B = B.unsqueeze(-1)
    A, B = _batched(A, B)
    X, *info = apply("linalg_solve", [A, B], attrs)
    # a batch of vectors' unsqueeze and squeeze shown as torch's one node
    return [_C.grad_fn_as(X.squeeze(-1), "LinalgSolveExBackward0", *given) if vector else X, *info]


def inv(A):
    """A^-1 of each square matrix."""
    return apply("linalg_inv", [A])[0]


def slogdet(A):
    """(sign, log|det|) of each square matrix: sign 0 and -inf for a singular one."""
    return _Slogdet(*apply("linalg_slogdet", [A]))


def det(A):
    """The determinant of each square matrix (sign * exp(log|det|): its gradient is det * A^-T)."""
    sign, logabsdet = slogdet(A)
    return _C.grad_fn_as(sign * logabsdet.exp(), "LinalgDetBackward0", A)


def logdet(A):
    """log det A: NaN where det < 0, -inf where it is 0 (torch.logdet)."""
    sign, logabsdet = slogdet(A)
    return logabsdet + (sign.log() - sign.abs().log())


def cholesky(A, *, upper=False):
    """L lower with A = L L^T (reading A's lower half), or L^T when `upper`."""
    L = apply("linalg_cholesky", [A])[0]
    return L.transpose(-2, -1) if upper else L


def qr(A, mode="reduced"):
    """(Q, R): 'reduced' Q [m, k], R [k, n]; 'complete' Q [m, m], R [m, n]; 'r' R alone (Q empty)."""
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"[linalg_qr] mode {mode!r}; expected 'reduced', 'complete' or 'r'")
    _no_grad_yet("qr", A)
    Q, R = apply("linalg_qr", [A], {"complete": mode == "complete"})
    if mode == "r":
        from ._ops_creation import empty
        Q = empty(0, dtype=A.dtype, device=None if A.is_global else A.device)
    return _QR(Q, R)


def eig(A):
    """(eigenvalues, eigenvectors as columns) of each real square matrix, complex (complex64
    for float32, complex128 for float64), each vector of unit norm: LAPACK's geev, in its
    order, as torch's."""
    _no_grad_yet("eig", A)
    return _Eig(*apply("linalg_eig", [A]))


def eigvals(A):
    """The eigenvalues of each real square matrix, complex, in eig's order."""
    return eig(A).eigenvalues


def eigh(A, UPLO="L"):
    """(eigenvalues ascending, eigenvectors as columns) of each symmetric matrix, reading its
    lower (UPLO='L') or upper half."""
    if UPLO not in ("L", "U"):
        raise ValueError(f"[linalg_eigh] UPLO {UPLO!r}; expected 'L' or 'U'")
    return _Eigh(*apply("linalg_eigh", [A], {"upper": UPLO == "U"}))


def eigvalsh(A, UPLO="L"):
    """The eigenvalues of each symmetric matrix, ascending."""
    return eigh(A, UPLO).eigenvalues


def svd(A, full_matrices=True):
    """(U, S descending, Vh) with A = U diag(S) Vh; gradients need full_matrices=False."""
    return _SVD(*apply("linalg_svd", [A], {"full_matrices": bool(full_matrices)}))


def svdvals(A):
    """The singular values of each matrix, descending."""
    return svd(A, full_matrices=False).S


def lstsq(A, B, rcond=None, *, driver=None):
    """The least-squares solution of A X = B (LAPACK's gelsd, whatever `driver`), with what
    torch's driver returns beside it (torch's CPU default gelsy): the rank (not for gels), the
    singular values (gelsd and gelss alone) and the residuals, the squared column norms of
    A X - B (not for gelsy; where m > n and every matrix has full rank); the others empty."""
    driver = "gelsy" if driver is None else driver
    if driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError(f"torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss), "
                           f"got {driver!r}")
    _no_grad_yet("lstsq", A, B)
    vector = B.ndim == A.ndim - 1
    if vector:
        B = B.unsqueeze(-1)
    A, B = _batched(A, B)
    m, n = A.shape[-2], A.shape[-1]
    if rcond is None:
        rcond = (1.1920929e-07 if A.dtype == _dtype.float32 else 2.220446049250313e-16) * builtins.max(m, n)
    X, rank, S = apply("linalg_lstsq", [A, B], {"rcond": float(rcond)})
    from ._ops_creation import empty

    def none(dtype):
        return empty(0, dtype=dtype, device=None if A.is_global else A.device)

    if driver != "gelsy" and m > n and (driver == "gels" or bool((rank == n).all())):
        residuals = ((A @ X - B) ** 2).sum(dim=-2)
    else:
        residuals = none(A.dtype)
    if vector:
        X = X.squeeze(-1)
    return _Lstsq(X, residuals, none(rank.dtype) if driver == "gels" else rank,
                  S if driver in ("gelsd", "gelss") else none(A.dtype))


_LU_FACTOR = _returns("linalg_lu_factor", ("LU", "pivots"))
_LU_FACTOR_EX = _returns("linalg_lu_factor_ex", ("LU", "pivots", "info"))
_PLU = _returns("linalg_lu", ("P", "L", "U"))


def lu_factor_ex(A, *, pivot=True, check_errors=False):
    """LU with partial pivoting (LAPACK's getrf): LU holds L below its diagonal (a unit one left
    out) and U on and above it, pivots (int32, 1-based) the row each row was swapped with in
    turn; info is 0, or i where U[i-1, i-1] is the first zero of a singular matrix, as torch's."""
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    _no_grad_yet("lu_factor", A)
    LU, pivots = apply("linalg_lu_factor", [A])
    zero = (LU.diagonal(0, -2, -1) == 0).int()
    info = (zero.argmax(-1) + 1) * zero.amax(-1) if zero.shape[-1] else _ok(A, 2)
    if check_errors and bool((info > 0).any()):
        raise LinAlgError(f"linalg.lu_factor_ex: U[{int(info.amax()) - 1}, {int(info.amax()) - 1}] is zero: "
                          "the factorization is complete, but U is singular")
    return _LU_FACTOR_EX(LU, pivots, info.int())


def lu_factor(A, *, pivot=True):
    """(LU, pivots) of lu_factor_ex; a singular matrix factors (its U has a zero on the diagonal)."""
    LU, pivots, _ = lu_factor_ex(A, pivot=pivot)
    return _LU_FACTOR(LU, pivots)


def _permutation(pivots, rows):
    """perm [..., rows] with P^T A = A[..., perm, :] for lu_factor's pivots."""
    return apply("linalg_lu_permutation", [pivots], {"rows": int(rows)})[0]


def _lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """torch.lu_unpack: (P, L, U) with A = P L U from lu_factor's LU and pivots (empty tensors
    for the parts not asked for)."""
    from ._ops_creation import arange, empty
    m, n = LU_data.shape[-2:]
    k = builtins.min(m, n)
    device = None if LU_data.is_global else LU_data.device
    if unpack_data:
        L = LU_data[..., :, :k].tril(-1) + _eye_like(LU_data, m, k)
        U = LU_data[..., :k, :].triu()
    else:
        L = U = empty(0, dtype=LU_data.dtype, device=device)
    if unpack_pivots:
        perm = _permutation(LU_pivots, m)
        P = (arange(m, device=device).unsqueeze(-1) == perm.unsqueeze(-2)).to(LU_data.dtype)
    else:
        P = empty(0, dtype=LU_data.dtype, device=device)
    return _returns("lu_unpack", ("P", "L", "U"))(P, L, U)


def lu(A, *, pivot=True):
    """(P, L, U) with A = P L U: P a permutation, L [m, k] unit lower, U [k, n] upper."""
    return _PLU(*_lu_unpack(*lu_factor(A, pivot=pivot)))


def lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    """X with A X = B (X A = B with left=False; A^H for A with adjoint) from A's lu_factor:
    the rows of B permuted, then the two triangular solves."""
    if not left:
        return lu_solve(LU, pivots, B.transpose(-2, -1), adjoint=not adjoint).transpose(-2, -1)
    n = LU.shape[-1]
    if LU.shape[-2] != n:
        raise RuntimeError(f"linalg.lu_solve: LU has shape {tuple(LU.shape)}; expected a square matrix or a batch "
                           "of them")
    LU, B = _batched(LU, B)
    perm = _permutation(pivots, n).expand(*B.shape[:-2], n)
    if not adjoint:  # A = P L U: X = U^-1 L^-1 P^T B
        Y = solve_triangular(LU, B.gather(-2, perm.unsqueeze(-1).expand(B.shape)), upper=False, unitriangular=True)
        return solve_triangular(LU, Y, upper=True)
    # A^T = U^T L^T P^T: X = P L^-T U^-T B
    Lt = LU.transpose(-2, -1)
    Y = solve_triangular(Lt, solve_triangular(Lt, B, upper=False), upper=True, unitriangular=True)
    return Y.gather(-2, perm.argsort(-1).unsqueeze(-1).expand(Y.shape))  # row perm[i] of X is row i of Y


# torch.linalg's names composed of the ops above and meshflow's own.

def cross(input, other, *, dim=-1):
    from ._api import cross as _cross
    return _cross(input, other, dim)


def matmul(input, other):
    return input.matmul(other)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return A.diagonal(offset, dim1, dim2)


def vecdot(x, y, *, dim=-1):
    return (x * y).sum(dim)


def multi_dot(tensors):
    """The product of the matrices in order (a first 1-d one a row, a last one a column)."""
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    out = tensors[0]
    for t in tensors[1:]:
        out = out.matmul(t)
    return out


def matrix_power(A, n):
    from ._api import matrix_power as _power
    return _power(A, n)


def _tolerance(S, A, atol, rtol, hermitian=False):
    if rtol is None:
        eps = 1.1920929e-07 if A.dtype == _dtype.float32 else 2.220446049250313e-16
        rtol = 0.0 if atol is not None and atol > 0 else eps * builtins.max(A.shape[-2], A.shape[-1])
    return (S.amax(-1, keepdim=True) * rtol).clamp(min=atol or 0.0)


def pinv(A, *, atol=None, rtol=None, hermitian=False):
    """The pseudo-inverse from the SVD: singular values at or below the tolerance
    (max(atol, rtol * largest)) dropped, as torch's; its gradient is torch's closed form."""
    return _PseudoInverse.apply(A, atol, rtol)


class _PseudoInverse(_Function):
    """pinv's gradient is torch's pinv_backward, a closed form in A and pinv(A) (Golub and
    Pereyra's): differentiating through the SVD gives another one where singular values are
    dropped, and NaN where the dropped ones repeat (a rank-deficient matrix)."""

    @staticmethod
    def forward(ctx, A, atol, rtol):
        from ._ops_elementwise import where
        U, S, Vh = svd(A, full_matrices=False)
        keep = S > _tolerance(S, A, atol, rtol)
        inverse = where(keep, 1.0 / where(keep, S, 1.0), 0.0).to(S.dtype)
        result = (Vh.transpose(-2, -1) * inverse.unsqueeze(-2)).matmul(U.transpose(-2, -1))
        ctx.save_for_backward(A, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        A, P = ctx.saved_tensors
        Ph, gh = P.mH, grad.mH
        if A.shape[-2] <= A.shape[-1]:  # the products of the smaller dims, as torch's
            K = gh @ P
            KPh = K @ Ph
            dA = -(P @ K).mH + KPh - (A @ P) @ KPh + (Ph @ P) @ (gh - K @ A)
        else:
            K = P @ gh
            PhK = Ph @ K
            dA = -(K @ P).mH + (gh - A @ K) @ P @ Ph + PhK - PhK @ P @ A
        return dA, None, None


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False):
    S = svdvals(A)
    return (S > _tolerance(S, A, atol, rtol)).sum(-1)


def cond(A, p=None):
    """The condition number: largest over smallest singular value (p None or 2; -2 the
    inverse), or norm(A, p) * norm(inv(A), p)."""
    if p in (None, 2, -2):
        S = svdvals(A)
        ratio = S[..., 0] / S[..., -1]
        return ratio if p != -2 else 1.0 / ratio
    return matrix_norm(A, p) * matrix_norm(inv(A), p)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    """The solution of A X = B (X A = B with left=False) for a triangular A (its other triangle
    ignored, its diagonal taken as ones with unitriangular)."""
    from ._ops_creation import eye
    T = A.triu() if upper else A.tril()
    if unitriangular:
        identity = eye(A.shape[-1], dtype=A.dtype, device=None if A.is_global else A.device)
        T = T * (1 - identity) + identity
    return solve(T, B, left=left)


def _ok(A, dims):
    from ._ops_creation import zeros
    return zeros(*A.shape[:-dims], dtype=_dtype.int32, device=None if A.is_global else A.device)


def inv_ex(A, *, check_errors=False):
    """(A^-1, info): info per matrix 0, or the order of U's zero pivot (its inverse NaN), as
    torch's; check_errors raises as inv does."""
    if check_errors:
        return _returns("linalg_inv_ex", ("inverse", "info"))(inv(A), _ok(A, 2))
    return _returns("linalg_inv_ex", ("inverse", "info"))(*apply("linalg_inv", [A], {"ex": True}))


def cholesky_ex(A, *, upper=False, check_errors=False):
    """(L, info): info per matrix 0, or the order of the leading minor that is not
    positive-definite (L what the factorization left), as torch's."""
    if check_errors:
        return _returns("linalg_cholesky_ex", ("L", "info"))(cholesky(A, upper=upper), _ok(A, 2))
    L, info = apply("linalg_cholesky", [A], {"ex": True})
    return _returns("linalg_cholesky_ex", ("L", "info"))(L.transpose(-2, -1) if upper else L, info)


def solve_ex(A, B, *, left=True, check_errors=False):
    """(X, info) as inv_ex's."""
    if check_errors:
        return _returns("linalg_solve_ex", ("result", "info"))(solve(A, B, left=left), _ok(A, 2))
    return _returns("linalg_solve_ex", ("result", "info"))(*_solve(A, B, left, {"ex": True}))


def _eye_like(A, n, m=None):
    """The n x m identity in A's dtype, where A lives (local: its device)."""
    from ._ops_creation import eye
    I = eye(n, m, dtype=A.dtype, device=None if A.is_global else A.device)
    return _as_layout_of(I, A)


def _as_layout_of(t, like):
    if like.is_global and not t.is_global:
        return t.to_global(placement=like.placement, sbp=[_C.Sbp.broadcast()] * len(like.placement.hierarchy))
    return t


def matrix_exp(A):
    """exp(A) of each square matrix [..., n, n]: scaling and squaring (A / 2^s of 1-norm at most
    1/2, read on the host) with its Taylor polynomial of degree 18 (a remainder below 1e-22 of
    the result), composed of matmuls, so gradients (of any order) flow as theirs."""
    import math
    n = A.shape[-1]
    if A.ndim < 2 or A.shape[-2] != n:
        raise RuntimeError(f"linalg.matrix_exp: A must be a batch of square matrices, got shape {tuple(A.shape)}")
    norm = float(A.detach().abs().sum(-2).amax()) if A.numel() else 0.0
    s = max(0, math.ceil(math.log2(norm / 0.5))) if norm > 0.5 else 0
    X = A / (2 ** s)
    I = _eye_like(A, n)
    E = I + X / 18
    for k in range(17, 0, -1):  # Horner: I + X/1 (I + X/2 (... (I + X/18)))
        E = I + (X @ E) / k
    for _ in range(s):
        E = E @ E
    return E


def householder_product(A, tau):
    """The first n columns of H_1 H_2 ... H_k for A [..., m, n] and tau [..., k] (k <= n <= m):
    H_i = I - tau_i v_i v_i^T, v_i with zeros above row i, 1 at row i and A's column i below it
    (LAPACK's orgqr, as torch's). Composed of matmuls: gradients flow to A and tau."""
    m, n = A.shape[-2], A.shape[-1]
    k = tau.shape[-1]
    if not k <= n <= m:
        raise RuntimeError(f"householder_product: expected tau.shape[-1] <= A.shape[-1] <= A.shape[-2], got A "
                           f"{tuple(A.shape)} and tau {tuple(tau.shape)}")
    V = A.tril(-1) + _eye_like(A, m, n)
    Q = _eye_like(A, m, n).expand(*A.shape[:-2], m, n)
    for i in range(k - 1, -1, -1):  # Q = H_i Q, the last reflection first
        v = V[..., :, i:i + 1]
        Q = Q - tau[..., i:i + 1].unsqueeze(-1) * (v @ (v.transpose(-2, -1) @ Q))
    return Q


def vander(x, *, N=None):
    from ._ops_port import vander as _vander
    return _vander(x, N, increasing=True) if x.ndim == 1 else \
        x.unsqueeze(-1) ** _arange_like(x, x.shape[-1] if N is None else N)


def _arange_like(x, n):
    from ._ops_creation import arange
    return arange(n, device=None if x.is_global else x.device)


# torch's older spellings: torch.svd gives V (not Vh) and reduced factors unless some=False;
# torch.qr takes some=True for 'reduced'.
_SVDV = _returns("svd", ("U", "S", "V"))


def _torch_svd(input, some=True, compute_uv=True):
    U, S, Vh = svd(input, full_matrices=not some)
    return _SVDV(U, S, Vh.transpose(-2, -1))


def _torch_qr(input, some=True):
    return qr(input, "reduced" if some else "complete")


_LU = _returns("lu", ("LU", "pivots"))


def _torch_lu(A, pivot=True, get_infos=False):
    """torch.lu (deprecated there for linalg.lu_factor): (LU, pivots), with infos when asked."""
    LU, pivots, info = lu_factor_ex(A, pivot=pivot)
    return (LU, pivots, info) if get_infos else _LU(LU, pivots)


def _torch_lu_solve(b, LU_data, LU_pivots):
    return lu_solve(LU_data, LU_pivots, b)


def _torch_cholesky(input, upper=False):
    return cholesky(input, upper=upper)


def _cholesky_solve(B, L, upper=False):
    """torch.cholesky_solve: X with A X = B, given A's Cholesky factor L (lower, or U = L^T with
    upper): two triangular solves."""
    lower = L.transpose(-2, -1) if upper else L
    return solve_triangular(lower.transpose(-2, -1), solve_triangular(lower, B, upper=False), upper=True)


_TRIANGULAR = _returns("triangular_solve", ("solution", "cloned_coefficient"))


def _triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """torch.triangular_solve (deprecated there for linalg.solve_triangular): X with A X = b
    (A^T X = b with transpose), A's triangle as `upper` says; returns (solution, a copy of A)."""
    coefficient = A.transpose(-2, -1) if transpose else A
    return _TRIANGULAR(solve_triangular(coefficient, b, upper=upper != transpose, unitriangular=unitriangular),
                       A.clone())


def _cholesky_inverse(L, upper=False):
    """torch.cholesky_inverse: A^-1 from A's Cholesky factor (lower, or upper)."""
    return _CholeskyInverse.apply(L, bool(upper))


class _CholeskyInverse(_Function):
    """The value reads L's triangle alone, but the gradient is torch's formula, which multiplies
    by all of L: -(A^-1 (G + G^H) A^-1) L (lower; -U (..) upper). Composing the two triangular
    solves would differentiate the triangle alone, another gradient wherever L is not
    triangular (an SPD matrix passed for its factor, as programs do)."""

    @staticmethod
    def forward(ctx, L, upper):
        from ._ops_creation import eye
        n = L.shape[-1]
        identity = eye(n, dtype=L.dtype, device=None if L.is_global else L.device).expand(*L.shape[:-2], n, n)
        inverse = _cholesky_solve(identity, L, upper)
        ctx.upper = upper
        ctx.save_for_backward(L, inverse)
        return inverse

    @staticmethod
    def backward(ctx, grad):
        L, inverse = ctx.saved_tensors
        common = inverse @ ((grad + grad.mH) @ inverse)
        return -(L @ common) if ctx.upper else -(common @ L), None


def _approximate_basis(A, q, niter):
    """An orthonormal basis [.., m, q] of A's range from a random Gaussian sketch refined by
    niter power iterations (Halko et al.'s algorithm 4.4, torch's get_approximate_basis)."""
    from ._ops_creation import randn
    R = randn(*A.shape[:-2], A.shape[-1], q, dtype=A.dtype, device=None if A.is_global else A.device)
    Q = qr(A @ R).Q
    for _ in range(niter):
        Q = qr(A.transpose(-2, -1) @ Q).Q
        Q = qr(A @ Q).Q
    return Q


def _svd_lowrank(A, q=6, niter=2, M=None):
    """torch.svd_lowrank: (U, S, V) of a rank-q approximation of A - M by randomized range
    finding (the sketch from meshflow's generator, so values agree with torch's only where q
    reaches A's rank); the transposed problem when A is wide, as torch's."""
    q = 6 if q is None else q
    if M is not None:
        A = A - M
    m, n = A.shape[-2:]
    if m < n or n > q:
        At = A.transpose(-2, -1)
        Q = _approximate_basis(At, q, niter)
        U, S, Vh = svd(A @ Q, full_matrices=False)
        return _SVDV(U, S, Q @ Vh.transpose(-2, -1))
    Q = _approximate_basis(A, q, niter)
    U, S, Vh = svd(Q.transpose(-2, -1) @ A, full_matrices=False)
    return _SVDV(Q @ U, S, Vh.transpose(-2, -1))


def _pca_lowrank(A, q=None, center=True, niter=2):
    """torch.pca_lowrank: svd_lowrank of A with its column means removed (center=True), q
    min(6, m, n) by default."""
    if q is None:
        q = min(6, *A.shape[-2:])
    return _svd_lowrank(A - A.mean(-2, keepdim=True) if center else A, q, niter)


_Geqrf = _returns("geqrf", ("a", "tau"))


def _geqrf(input):
    """torch.geqrf: LAPACK's QR factorization as it leaves it, (a, tau): R on and above a's
    diagonal, the Householder vectors below it (householder_product(a, tau) is Q)."""
    _no_grad_yet("geqrf", input)
    return _Geqrf(*apply("linalg_geqrf", [input]))


# Top-level functions with no Tensor method (meshflow/__init__.py binds them).
FUNCTIONS = {"svd_lowrank": _svd_lowrank, "pca_lowrank": _pca_lowrank, "lu_unpack": _lu_unpack}

# Bound on meshflow (meshflow/__init__.py) and as Tensor methods, as torch has them.
TOP_LEVEL = {"inverse": inv, "det": det, "logdet": logdet, "slogdet": slogdet, "cholesky": _torch_cholesky,
             "svd": _torch_svd, "qr": _torch_qr, "cholesky_solve": _cholesky_solve,
             "cholesky_inverse": _cholesky_inverse, "matrix_exp": matrix_exp,
             "triangular_solve": _triangular_solve, "lu": _torch_lu, "lu_solve": _torch_lu_solve, "geqrf": _geqrf}
for _name, _f in TOP_LEVEL.items():
    setattr(Tensor, _name, _f)
