"""meshflow.nn.utils: torch.nn.utils' gradient clipping (clip_grad_norm_ is the same function
as meshflow.optim.clip_grad_norm_), parameters_to_vector, weight_norm and spectral_norm (the
older hook forms), torch.nn.utils.rnn's pad_sequence and packed sequences in the submodule
rnn, parametrize / parametrizations (the newer forms), prune (the pruning tutorial's) and
fusion (a convolution or linear layer with its BatchNorm folded, for inference)."""
from ...optim import clip_grad_norm_, clip_grads_with_norm_, get_total_norm  # noqa: F401: part of this module's API

clip_grad_norm = clip_grad_norm_  # torch's deprecated spelling
from ..._tensor import Tensor, no_grad
from . import rnn, prune  # noqa: F401: part of this module's API

__all__ = ["clip_grad_norm_", "clip_grads_with_norm_", "get_total_norm", "clip_grad_value_", "parameters_to_vector",
           "vector_to_parameters", "weight_norm", "remove_weight_norm", "spectral_norm", "remove_spectral_norm", "rnn",
           "parametrize", "parametrizations", "clip_grad_norm", "stateless", "skip_init", "prune",
           "fusion", "fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval", "fuse_linear_bn_weights"]


def skip_init(module_cls, *args, **kwargs):
    """torch's module built without initializing its parameters (their values are whatever
    memory held there; the caller sets them). Here it is built as usual: the initial values
    are one draw of the generator, which the caller overwrites as torch's uninitialized ones."""
    if "device" not in module_cls.__init__.__code__.co_varnames:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    return module_cls(*args, **kwargs)


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamps every gradient to [-clip_value, clip_value], in place over its memory (C++'s
    optim::clip_grad_value)."""
    from ... import _C
    from ..._tensor import _impl_of
    parameters = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    _C.clip_grad_value([_impl_of("clip_grad_value_", p) for p in parameters], float(clip_value))


def parameters_to_vector(parameters):
    """The parameters flattened and concatenated into one vector."""
    from ..._ops_shape import cat
    return cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    """The parameters take their values from `vec` (parameters_to_vector's layout), in place."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    parameters = list(parameters)
    total = sum(p.numel() for p in parameters)
    if total != vec.numel():
        raise RuntimeError(f"vector_to_parameters: the vector has {vec.numel()} elements; the parameters {total}")
    start = 0
    with no_grad():
        for p in parameters:
            n = p.numel()
            p.copy_(vec[start:start + n].reshape(list(p.shape)))
            start += n


def _norm_except_dim(v, dim):
    """The 2-norm of v over every dim but `dim` (kept as size-1 dims), or over all of v (dim -1
    or None)."""
    if dim is None or dim == -1:
        return v.norm()
    dim %= v.ndim
    return v.norm(2, dim=[d for d in range(v.ndim) if d != dim], keepdim=True) if v.ndim > 1 else v.abs()


def _weight_normed_forward(module, *args, **kwargs):
    """The module's forward with each weight-normed tensor first recomputed, g * v / |v|."""
    for name, dim in module._weight_norms.items():
        v = getattr(module, name + "_v")
        object.__setattr__(module, name, v * (getattr(module, name + "_g") / _norm_except_dim(v, dim)))
    return type(module).forward(module, *args, **kwargs)


def weight_norm(module, name="weight", dim=0):
    """torch.nn.utils.weight_norm: the parameter `name` becomes name_g (its norm over every dim
    but `dim`) and name_v (its direction), and each forward uses g * v / |v|. Returns module."""
    import types
    from ..modules import Parameter
    norms = module.__dict__.setdefault("_weight_norms", {})
    if name in norms:
        raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
    weight = module._parameters.get(name)
    if weight is None:
        raise AttributeError(f"weight_norm: {type(module).__name__} has no parameter {name!r}")
    del module._parameters[name]
    with no_grad():
        module.register_parameter(name + "_g", Parameter(_norm_except_dim(weight, dim).detach().clone()))
        module.register_parameter(name + "_v", Parameter(weight.detach().clone()))
    norms[name] = dim
    object.__setattr__(module, "forward", types.MethodType(_weight_normed_forward, module))
    object.__setattr__(module, name, weight.detach())  # until the first forward recomputes it (g * v / |v| = weight)
    return module


def remove_weight_norm(module, name="weight"):
    """Undoes weight_norm: `name` is a parameter again, holding g * v / |v|. Returns module."""
    from ..modules import Parameter
    norms = module.__dict__.get("_weight_norms", {})
    if name not in norms:
        raise ValueError(f"weight_norm of '{name}' not found in {type(module).__name__}")
    dim = norms.pop(name)
    g, v = module._parameters.pop(name + "_g"), module._parameters.pop(name + "_v")
    with no_grad():
        weight = v * (g / _norm_except_dim(v, dim))
    module.__dict__.pop(name, None)
    module.register_parameter(name, Parameter(weight.detach()))
    if not norms:
        module.__dict__.pop("forward", None)
    return module


class _SpectralNorm:
    """spectral_norm's forward pre-hook: `name` = name_orig / sigma, sigma estimated by power
    iteration on name_orig as a matrix [size of `dim`, rest] (u and v, buffers, advance in
    training only), as torch's SpectralNorm."""

    def __init__(self, name, n_power_iterations, dim, eps):
        self.name, self.n_power_iterations, self.dim, self.eps = name, n_power_iterations, dim, eps

    def matrix(self, weight):
        if self.dim != 0:
            weight = weight.movedim(self.dim, 0)
        return weight.reshape(weight.shape[0], -1)

    def compute_weight(self, module, do_power_iteration):
        from .. import functional as F
        weight = getattr(module, self.name + "_orig")
        u, v = getattr(module, self.name + "_u"), getattr(module, self.name + "_v")
        mat = self.matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    v.copy_(F.normalize(mat.t().mv(u), dim=0, eps=self.eps))
                    u.copy_(F.normalize(mat.mv(v), dim=0, eps=self.eps))
        # u and v as they are now: the step's later writes (the next forward) must not reach
        # this forward's graph, as torch's clones.
        u, v = u.clone(), v.clone()
        return weight / u.dot(mat.mv(v))

    def __call__(self, module, inputs):
        object.__setattr__(module, self.name, self.compute_weight(module, module.training))


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """torch.nn.utils.spectral_norm: the parameter `name` becomes name_orig, with buffers name_u
    and name_v (unit vectors, drawn from meshflow's generator, so not torch's values), and each
    forward uses name_orig / sigma, sigma its largest singular value estimated by
    n_power_iterations of power iteration in training (dim: the output dim, 0, or 1 for the
    transposed convolutions). Returns module."""
    from ..functional import normalize
    from ..modules import Parameter
    hooks = module.__dict__.setdefault("_spectral_norms", {})
    if name in hooks:
        raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")
    if n_power_iterations <= 0:
        raise ValueError(f"Expected n_power_iterations to be positive, but got n_power_iterations={n_power_iterations}")
    weight = module._parameters.get(name)
    if weight is None:
        raise AttributeError(f"spectral_norm: {type(module).__name__} has no parameter {name!r}")
    if dim is None:
        dim = 1 if type(module).__name__.startswith("ConvTranspose") else 0
    fn = _SpectralNorm(name, n_power_iterations, dim, eps)
    mat = fn.matrix(weight.detach())
    with no_grad():
        u = normalize(mat.new_empty(mat.shape[0]).normal_(0, 1), dim=0, eps=eps)
        v = normalize(mat.new_empty(mat.shape[1]).normal_(0, 1), dim=0, eps=eps)
    del module._parameters[name]
    module.register_parameter(name + "_orig", weight if isinstance(weight, Parameter) else Parameter(weight))
    object.__setattr__(module, name, weight.detach())
    module.register_buffer(name + "_u", u)
    module.register_buffer(name + "_v", v)
    hooks[name] = (fn, module.register_forward_pre_hook(fn))
    return module


def remove_spectral_norm(module, name="weight"):
    """Undoes spectral_norm: `name` is a parameter again, holding name_orig / sigma (no power
    iteration). Returns module."""
    from ..modules import Parameter
    hooks = module.__dict__.get("_spectral_norms", {})
    if name not in hooks:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    fn, handle = hooks.pop(name)
    handle.remove()
    with no_grad():
        weight = fn.compute_weight(module, do_power_iteration=False)
    module.__dict__.pop(name, None)
    for suffix in ("_orig", "_u", "_v"):
        delattr(module, name + suffix)
    module.register_parameter(name, Parameter(weight.detach()))
    return module


from . import fusion, parametrize, parametrizations, stateless  # noqa: E402,F401: part of this module's API (they use the above)
from .fusion import fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval, fuse_linear_bn_weights  # noqa: E402,F401
