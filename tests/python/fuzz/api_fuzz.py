"""Differential fuzz of autograd.functional, func, distributions, nn.utils and nn.init
against torch (a tool, not a test). Usage as grad_fuzz.py."""
import math, warnings, sys
import numpy as np
warnings.filterwarnings("ignore")
import torch
import torch.nn.utils.prune
import meshflow as mf
bad = []; n = 0
def arr(shape, seed=0, lo=-1.5, hi=1.5): return np.random.default_rng(seed).uniform(lo, hi, size=shape)
def npv(r):
    if isinstance(r, (tuple, list)): return [npv(x) for x in r]
    if isinstance(r, dict): return {k: npv(v) for k, v in sorted(r.items())}
    if isinstance(r, torch.Tensor): return ("T", str(r.dtype).split(".")[-1], r.detach().to(torch.float64).numpy() if r.dtype != torch.bool else r.numpy())
    if isinstance(r, mf.Tensor): return ("T", str(r.dtype).split(".")[-1], r.detach().to(mf.float64).numpy() if r.dtype != mf.bool else r.numpy())
    if isinstance(r, (torch.Size,)): return tuple(r)
    return r
def same(a, b, tol):
    if isinstance(a, list): return isinstance(b, list) and len(a) == len(b) and all(same(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, dict): return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k], tol) for k in a)
    if isinstance(a, tuple) and a and a[0] == "T":
        return isinstance(b, tuple) and b and b[0] == "T" and a[1] == b[1] and a[2].shape == b[2].shape and np.allclose(a[2], b[2], rtol=tol, atol=tol, equal_nan=True)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray): return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape and np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)
    if isinstance(a, float) and isinstance(b, float): return math.isclose(a, b, rel_tol=tol, abs_tol=tol) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, tuple) and isinstance(b, tuple): return len(a) == len(b) and all(same(x, y, tol) for x, y in zip(a, b))
    return a == b
def short(v):
    s = repr(v).replace("\n", " "); return s[:300]
def check(name, f, tol=1e-6):
    global n
    n += 1
    res = []
    for L in (torch, mf):
        try: res.append(("ok", npv(f(L))))
        except Exception as e: res.append(("raise", f"{type(e).__name__}: {str(e)[:120]}".replace("\n", " ")))
    (ts, t), (ms, m) = res
    if ts == "raise" and ms == "raise": return
    if ts != ms: bad.append(f"{name}: torch {ts} {t if ts == 'raise' else ''} | mf {ms} {m if ms == 'raise' else ''}"); print(bad[-1], flush=True); return
    if not same(t, m, tol): bad.append(f"{name}: VALUES differ\n   torch {short(t)}\n   mf    {short(m)}"); print(bad[-1], flush=True)
T = lambda L, a, **k: L.tensor(a, dtype=L.float64, **k)

# ---- autograd.functional
fs = {
 "poly": lambda L, x: (x ** 3).sum() + (x[0] * x[1]) if x.dim() else x ** 3,
 "vec": lambda L, x: L.stack([x.sin().sum(), (x * x).prod()]) if x.dim() else x.sin(),
 "mat": lambda L, x: x.exp() * x.sum(),
}
two = lambda L, x, y: (x * y.sin()).sum() + (x ** 2).sum()
for fname, fn in fs.items():
    for shape in [(3,), (2, 2)]:
        x = arr(shape)
        for vec in (False, True):
            for strat in ("reverse-mode", "forward-mode"):
                if strat == "forward-mode" and not vec: continue
                check(f"AF.jacobian {fname} {shape} vec={vec} {strat}", lambda L: L.autograd.functional.jacobian(lambda t: fn(L, t), T(L, x), vectorize=vec, strategy=strat))
        if fname == "poly":
            for vec in (False, True):
                check(f"AF.hessian {fname} {shape} vec={vec}", lambda L: L.autograd.functional.hessian(lambda t: fn(L, t), T(L, x), vectorize=vec))
                check(f"AF.hessian outer_jacobian_strategy {shape}", lambda L: L.autograd.functional.hessian(lambda t: fn(L, t), T(L, x), vectorize=True, outer_jacobian_strategy="forward-mode"))
            v = arr(shape, 3)
            for op in ("hvp", "vhp"):
                check(f"AF.{op} {shape}", lambda L: getattr(L.autograd.functional, op)(lambda t: fn(L, t), T(L, x), T(L, v)))
                check(f"AF.{op} create_graph {shape}", lambda L: getattr(L.autograd.functional, op)(lambda t: fn(L, t), T(L, x), T(L, v), create_graph=True))
        check(f"AF.vjp {fname} {shape}", lambda L: L.autograd.functional.vjp(lambda t: fn(L, t), T(L, x), L.ones_like(fn(L, T(L, x)))))
        check(f"AF.jvp {fname} {shape}", lambda L: L.autograd.functional.jvp(lambda t: fn(L, t), T(L, x), T(L, arr(shape, 5))))
check("AF.jacobian two inputs", lambda L: L.autograd.functional.jacobian(lambda a, b: two(L, a, b), (T(L, arr(3)), T(L, arr(3, 1)))))
check("AF.hessian two inputs", lambda L: L.autograd.functional.hessian(lambda a, b: two(L, a, b), (T(L, arr(3)), T(L, arr(3, 1)))))
check("AF.jacobian tuple out", lambda L: L.autograd.functional.jacobian(lambda a: (a * 2, a.sum()), T(L, arr(3))))
check("AF.jacobian 0d", lambda L: L.autograd.functional.jacobian(lambda a: a * a, T(L, 1.5)))
check("AF.jacobian independent", lambda L: L.autograd.functional.jacobian(lambda a, b: a * 2, (T(L, arr(2)), T(L, arr(2)))))
check("AF.jacobian strict", lambda L: L.autograd.functional.jacobian(lambda a, b: a * 2, (T(L, arr(2)), T(L, arr(2))), strict=True))
check("AF.vjp v None scalar", lambda L: L.autograd.functional.vjp(lambda a: (a * a).sum(), T(L, arr(3))))
check("AF.vjp v None nonscalar", lambda L: L.autograd.functional.vjp(lambda a: a * a, T(L, arr(3))))
check("AF.jvp v None nonscalar in", lambda L: L.autograd.functional.jvp(lambda a: a * a, T(L, arr(3))))
check("AF.hvp nonscalar f", lambda L: L.autograd.functional.hvp(lambda a: a * a, T(L, arr(3)), T(L, arr(3))))

# ---- func
F_ = lambda L: L.func
g = lambda L, x: (x.sin() * x).sum()
for shape in [(), (3,), (2, 3)]:
    x = arr(shape)
    check(f"func.grad {shape}", lambda L: F_(L).grad(lambda t: g(L, t))(T(L, x)))
    check(f"func.grad_and_value {shape}", lambda L: F_(L).grad_and_value(lambda t: g(L, t))(T(L, x)))
    check(f"func.jacrev {shape}", lambda L: F_(L).jacrev(lambda t: t.sin() * t.sum())(T(L, x)))
    check(f"func.jacfwd {shape}", lambda L: F_(L).jacfwd(lambda t: t.sin() * t.sum())(T(L, x)))
    check(f"func.hessian {shape}", lambda L: F_(L).hessian(lambda t: g(L, t))(T(L, x)))
    check(f"func.vjp {shape}", lambda L: F_(L).vjp(lambda t: t.exp(), T(L, x))[1](T(L, arr(shape, 2))))
    check(f"func.jvp {shape}", lambda L: F_(L).jvp(lambda t: t.exp() * t, (T(L, x),), (T(L, arr(shape, 2)),)))
check("func.grad argnums", lambda L: F_(L).grad(lambda a, b: (a * b.exp()).sum(), argnums=(0, 1))(T(L, arr(3)), T(L, arr(3, 1))))
check("func.grad argnums1", lambda L: F_(L).grad(lambda a, b: (a * b.exp()).sum(), argnums=1)(T(L, arr(3)), T(L, arr(3, 1))))
check("func.grad has_aux", lambda L: F_(L).grad(lambda a: ((a * a).sum(), a.mean()), has_aux=True)(T(L, arr(3))))
check("func.jacrev argnums", lambda L: F_(L).jacrev(lambda a, b: a * b, argnums=(0, 1))(T(L, arr(3)), T(L, arr(3, 1))))
check("func.jacfwd argnums", lambda L: F_(L).jacfwd(lambda a, b: a * b, argnums=1)(T(L, arr(3)), T(L, arr(3, 1))))
check("func.jacrev has_aux", lambda L: F_(L).jacrev(lambda a: (a.sin(), a.sum()), has_aux=True)(T(L, arr(3))))
check("func.jacrev dict out", lambda L: F_(L).jacrev(lambda a: {"s": a.sin(), "c": a.cos()})(T(L, arr(2))))
check("func.grad nonscalar raises", lambda L: F_(L).grad(lambda a: a * 2)(T(L, arr(3))))
check("func.vjp has_aux", lambda L: F_(L).vjp(lambda a: (a.exp(), a.sum()), T(L, arr(3)), has_aux=True)[1:][0](T(L, arr(3))) if False else F_(L).vjp(lambda a: (a.exp(), a.sum()), T(L, arr(3)), has_aux=True)[2])
vm = lambda L: F_(L).vmap
check("vmap basic", lambda L: vm(L)(lambda a: a.sum())(T(L, arr((4, 3)))))
check("vmap in_dims 1", lambda L: vm(L)(lambda a: a * 2, in_dims=1)(T(L, arr((4, 3)))))
check("vmap out_dims 1", lambda L: vm(L)(lambda a: a * 2, in_dims=0, out_dims=1)(T(L, arr((4, 3)))))
check("vmap in_dims None", lambda L: vm(L)(lambda a, b: a @ b, in_dims=(0, None))(T(L, arr((4, 2, 3))), T(L, arr((3, 2), 1))))
check("vmap chunk", lambda L: vm(L)(lambda a: a.softmax(0), chunk_size=2)(T(L, arr((5, 3)))))
check("vmap tuple out", lambda L: vm(L)(lambda a: (a.max(), a.argmax()))(T(L, arr((4, 3)))))
check("vmap out_dims tuple", lambda L: vm(L)(lambda a: (a * 2, a.sum()), out_dims=(1, 0))(T(L, arr((4, 3)))))
check("vmap nested", lambda L: vm(L)(vm(L)(lambda a: a * a.sum()))(T(L, arr((2, 3, 4)))))
check("vmap neg in_dim", lambda L: vm(L)(lambda a: a.cumsum(0), in_dims=-1)(T(L, arr((4, 3)))))
check("vmap size mismatch", lambda L: vm(L)(lambda a, b: a + b)(T(L, arr((4, 3))), T(L, arr((3, 3)))))
check("vmap grad per-sample", lambda L: vm(L)(F_(L).grad(lambda w, x: (w * x).sum().tanh()), in_dims=(None, 0))(T(L, arr(3)), T(L, arr((4, 3), 1))))
check("vmap scalar out_dims", lambda L: vm(L)(lambda a: a.sum(), out_dims=0)(T(L, arr(4))))
check("vmap kwargs", lambda L: vm(L)(lambda a, scale=1.0: a * scale)(T(L, arr((4, 3))), scale=3.0))
def fc(L):
    torch.manual_seed(0)
    lin = L.nn.Linear(3, 2)
    with L.no_grad():
        lin.weight.copy_(T(L, arr((2, 3), 7)).float()); lin.bias.copy_(T(L, arr(2, 8)).float())
    p = {"weight": L.tensor(arr((2, 3), 9), dtype=L.float32), "bias": L.zeros(2)}
    return lin, p
check("functional_call", lambda L: (lambda lin, p: L.func.functional_call(lin, p, (L.tensor(arr((4, 3), 1), dtype=L.float32),)))(*fc(L)))
check("functional_call partial", lambda L: (lambda lin, p: L.func.functional_call(lin, {"bias": p["bias"]}, (L.tensor(arr((4, 3), 1), dtype=L.float32),)))(*fc(L)))
check("functional_call strict missing", lambda L: (lambda lin, p: L.func.functional_call(lin, {"bias": p["bias"]}, (L.tensor(arr((4, 3), 1), dtype=L.float32),), strict=True))(*fc(L)))
check("functional_call unknown key", lambda L: (lambda lin, p: L.func.functional_call(lin, {"nope": p["bias"]}, (L.tensor(arr((4, 3), 1), dtype=L.float32),)))(*fc(L)))
check("functional_call tuple dicts", lambda L: (lambda lin, p: L.func.functional_call(lin, ({"weight": p["weight"]}, {"bias": p["bias"]}), L.tensor(arr((4, 3), 1), dtype=L.float32)))(*fc(L)))
check("functional_call kwargs", lambda L: (lambda lin, p: L.func.functional_call(lin, p, (), {"input": L.tensor(arr((4, 3), 1), dtype=L.float32)}))(*fc(L)))
check("stateless", lambda L: (lambda lin, p: L.nn.utils.stateless.functional_call(lin, p, (L.tensor(arr((4, 3), 1), dtype=L.float32),)))(*fc(L)))
check("functional_call grad", lambda L: (lambda lin, p: L.func.grad(lambda pp, x: L.func.functional_call(lin, pp, (x,)).sum())(p, L.tensor(arr((4, 3), 1), dtype=L.float32)))(*fc(L)), 1e-5)
print("api part1 n", n, "bad", len(bad), flush=True)

# ---- distributions
D = lambda L: L.distributions
P = lambda L, a: L.tensor(np.asarray(a, dtype=np.float64))
fam = [
 ("Normal", lambda L: D(L).Normal(P(L, [0.0, 1.0, -1.0]), P(L, [1.0, 0.5, 2.0])), [0.3, -1.2, 2.0]),
 ("LogNormal", lambda L: D(L).LogNormal(P(L, [0.0, 0.5]), P(L, [1.0, 0.3])), [0.5, 2.0]),
 ("Uniform", lambda L: D(L).Uniform(P(L, [0.0, -1.0]), P(L, [1.0, 2.0])), [0.5, 1.5]),
 ("Exponential", lambda L: D(L).Exponential(P(L, [0.5, 2.0])), [0.3, 1.7]),
 ("Gamma", lambda L: D(L).Gamma(P(L, [0.5, 3.0]), P(L, [1.0, 2.0])), [0.3, 1.7]),
 ("Beta", lambda L: D(L).Beta(P(L, [0.5, 3.0]), P(L, [2.0, 1.5])), [0.3, 0.7]),
 ("Laplace", lambda L: D(L).Laplace(P(L, [0.0, 1.0]), P(L, [1.0, 0.5])), [0.3, -1.2]),
 ("Cauchy", lambda L: D(L).Cauchy(P(L, [0.0, 1.0]), P(L, [1.0, 0.5])), [0.3, -1.2]),
 ("HalfNormal", lambda L: D(L).HalfNormal(P(L, [1.0, 0.5])), [0.3, 1.2]),
 ("HalfCauchy", lambda L: D(L).HalfCauchy(P(L, [1.0, 0.5])), [0.3, 1.2]),
 ("Gumbel", lambda L: D(L).Gumbel(P(L, [0.0, 1.0]), P(L, [1.0, 0.5])), [0.3, -1.2]),
 ("StudentT", lambda L: D(L).StudentT(P(L, [3.0, 1.5]), P(L, [0.0, 1.0]), P(L, [1.0, 2.0])), [0.3, -1.2]),
 ("Chi2", lambda L: D(L).Chi2(P(L, [3.0, 1.5])), [0.3, 2.2]),
 ("Pareto", lambda L: D(L).Pareto(P(L, [1.0, 0.5]), P(L, [3.0, 2.5])), [1.3, 2.2]),
 ("Weibull", lambda L: D(L).Weibull(P(L, [1.0, 0.5]), P(L, [3.0, 1.5])), [0.3, 2.2]),
 ("Bernoulli", lambda L: D(L).Bernoulli(probs=P(L, [0.3, 0.9])), [1.0, 0.0]),
 ("BernoulliLogits", lambda L: D(L).Bernoulli(logits=P(L, [0.3, -2.0])), [1.0, 0.0]),
 ("Binomial", lambda L: D(L).Binomial(5, probs=P(L, [0.3, 0.9])), [2.0, 5.0]),
 ("Geometric", lambda L: D(L).Geometric(probs=P(L, [0.3, 0.9])), [2.0, 0.0]),
 ("Poisson", lambda L: D(L).Poisson(P(L, [0.3, 4.0])), [2.0, 0.0]),
 ("NegativeBinomial", lambda L: D(L).NegativeBinomial(3.0, probs=P(L, [0.3, 0.6])), [2.0, 0.0]),
 ("Categorical", lambda L: D(L).Categorical(probs=P(L, [[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]])), [2.0, 0.0]),
 ("CategoricalLogits", lambda L: D(L).Categorical(logits=P(L, [[0.2, -0.3, 1.5], [0.6, 0.1, 0.3]])), [2.0, 0.0]),
 ("OneHot", lambda L: D(L).OneHotCategorical(probs=P(L, [0.2, 0.3, 0.5])), [0.0, 1.0, 0.0]),
 ("Multinomial", lambda L: D(L).Multinomial(4, probs=P(L, [0.2, 0.3, 0.5])), [1.0, 1.0, 2.0]),
 ("Dirichlet", lambda L: D(L).Dirichlet(P(L, [0.5, 2.0, 1.5])), [0.2, 0.3, 0.5]),
 ("MVN", lambda L: D(L).MultivariateNormal(P(L, [0.0, 1.0]), covariance_matrix=P(L, [[2.0, 0.3], [0.3, 1.0]])), [0.5, -0.2]),
 ("MVN_tril", lambda L: D(L).MultivariateNormal(P(L, [0.0, 1.0]), scale_tril=P(L, [[1.5, 0.0], [0.3, 1.0]])), [0.5, -0.2]),
 ("MVN_prec", lambda L: D(L).MultivariateNormal(P(L, [0.0, 1.0]), precision_matrix=P(L, [[2.0, 0.3], [0.3, 1.0]])), [0.5, -0.2]),
 ("Independent", lambda L: D(L).Independent(D(L).Normal(P(L, [0.0, 1.0]), P(L, [1.0, 0.5])), 1), [0.3, -1.2]),
 ("RelaxedBernoulli", lambda L: D(L).RelaxedBernoulli(P(L, 0.5), probs=P(L, [0.3, 0.9])), [0.2, 0.7]),
 ("Transformed", lambda L: D(L).TransformedDistribution(D(L).Normal(P(L, [0.0, 1.0]), P(L, [1.0, 0.5])), [D(L).transforms.ExpTransform(), D(L).transforms.AffineTransform(1.0, 2.0)]), [1.5, 3.2]),
 ("Mixture", lambda L: D(L).MixtureSameFamily(D(L).Categorical(P(L, [0.3, 0.7])), D(L).Normal(P(L, [0.0, 2.0]), P(L, [1.0, 0.5]))), [0.3, 1.7]),
]
for name, mk, val in fam:
    for attr in ("mean", "mode", "variance", "stddev", "batch_shape", "event_shape", "support", "has_rsample", "entropy()", "log_prob", "cdf", "icdf", "perplexity()", "log_prob bad", "log_prob bcast", "sample_shape", "rsample_shape", "expand"):
        def f(L, attr=attr, mk=mk, val=val):
            d = mk(L)
            v = P(L, val)
            if attr == "log_prob": return d.log_prob(v)
            if attr == "log_prob bcast": return d.log_prob(v[..., None, :] if len(val) > 1 else v)
            if attr == "log_prob bad": return d.log_prob(P(L, [-5.0] * len(val)))
            if attr == "cdf": return d.cdf(v)
            if attr == "icdf": return d.icdf(P(L, [0.25] * len(val)))
            if attr == "support": return str(d.support).split("(")[0].split(".")[-1]
            if attr == "sample_shape": return tuple(d.sample((4, 2)).shape)
            if attr == "rsample_shape": return tuple(d.rsample((3,)).shape)
            if attr == "expand": return tuple(d.expand((5,) + tuple(d.batch_shape)).batch_shape)
            if attr.endswith("()"): return getattr(d, attr[:-2])()
            r = getattr(d, attr)
            return tuple(r) if isinstance(r, (torch.Size, tuple)) else r
        check(f"dist.{name}.{attr}", f, 1e-5)
kls = [("Normal", "Normal"), ("Normal", "Laplace"), ("Gamma", "Gamma"), ("Beta", "Beta"), ("Exponential", "Exponential"), ("Exponential", "Gamma"),
       ("Bernoulli", "Bernoulli"), ("Categorical", "Categorical"), ("Uniform", "Normal"), ("Laplace", "Laplace"), ("Poisson", "Poisson"),
       ("MVN", "MVN_tril"), ("Dirichlet", "Dirichlet"), ("Geometric", "Geometric"), ("LogNormal", "LogNormal"), ("Uniform", "Uniform"), ("Gumbel", "Gumbel"),
       ("HalfNormal", "HalfNormal"), ("Pareto", "Pareto"), ("Normal", "Gumbel"), ("Beta", "Uniform"), ("Independent", "Independent"), ("OneHot", "OneHot")]
fd = {k: v for k, v, _ in fam}
for a, b in kls:
    check(f"kl {a} {b}", lambda L, a=a, b=b: D(L).kl_divergence(fd[a](L), fd[b](L)), 1e-5)
C = lambda L: L.distributions.constraints
for cname, val in [("positive", [0.0, 1.0]), ("nonnegative", [0.0, -1.0]), ("unit_interval", [0.0, 1.0, 1.1]), ("real", [float("nan"), float("inf")]),
                   ("simplex", [0.3, 0.7]), ("boolean", [0.0, 1.0, 2.0]), ("nonnegative_integer", [0.0, 1.5, 2.0]), ("positive_integer", [0.0, 1.0]),
                   ("lower_cholesky", [[1.0, 0.0], [0.5, 1.0]]), ("positive_definite", [[2.0, 0.3], [0.3, 1.0]]), ("corr_cholesky", [[1.0, 0.0], [0.6, 0.8]]),
                   ("real_vector", [1.0, 2.0]), ("positive_semidefinite", [[1.0, 1.0], [1.0, 1.0]])]:
    check(f"constraint {cname}", lambda L, cname=cname, val=val: getattr(C(L), cname).check(P(L, val)))
check("constraint interval", lambda L: C(L).interval(0.0, 1.0).check(P(L, [0.0, 1.0, 1.5])))
check("constraint half_open", lambda L: C(L).half_open_interval(0.0, 1.0).check(P(L, [0.0, 1.0])))
check("constraint greater_than_eq", lambda L: C(L).greater_than_eq(1.0).check(P(L, [0.0, 1.0])))
check("constraint integer_interval", lambda L: C(L).integer_interval(0, 3).check(P(L, [0.0, 1.5, 3.0, 4.0])))
TR = lambda L: L.distributions.transforms
for tn, mk in [("Exp", lambda L: TR(L).ExpTransform()), ("Sigmoid", lambda L: TR(L).SigmoidTransform()), ("Tanh", lambda L: TR(L).TanhTransform()),
               ("Affine", lambda L: TR(L).AffineTransform(1.0, -2.0)), ("Softmax", lambda L: TR(L).SoftmaxTransform()), ("StickBreaking", lambda L: TR(L).StickBreakingTransform()),
               ("Power", lambda L: TR(L).PowerTransform(2.0)), ("Abs", lambda L: TR(L).AbsTransform()), ("Compose", lambda L: TR(L).ComposeTransform([TR(L).ExpTransform(), TR(L).AffineTransform(0.0, 3.0)])),
               ("Inv", lambda L: TR(L).ExpTransform().inv), ("CorrChol", lambda L: TR(L).CorrCholeskyTransform()), ("LowerChol", lambda L: TR(L).LowerCholeskyTransform()),
               ("Softplus", lambda L: TR(L).SoftplusTransform()), ("Cumulative", lambda L: TR(L).CumulativeDistributionTransform(D(L).Normal(0.0, 1.0)))]:
    x = [0.3, 0.9, 0.2] if tn != "LowerChol" else [[0.3, 0.1], [0.9, 0.2]]
    check(f"transform {tn} fwd", lambda L, mk=mk, x=x: mk(L)(P(L, x)))
    check(f"transform {tn} inv", lambda L, mk=mk, x=x: mk(L).inv(mk(L)(P(L, x))))
    check(f"transform {tn} ladj", lambda L, mk=mk, x=x: mk(L).log_abs_det_jacobian(P(L, x), mk(L)(P(L, x))))
    check(f"transform {tn} shapes", lambda L, mk=mk, x=x: (mk(L).domain.event_dim, mk(L).codomain.event_dim, mk(L).bijective, mk(L).sign if tn in ("Exp", "Affine", "Sigmoid") else 0))
print("api part2 n", n, "bad", len(bad), flush=True)

# ---- nn.utils
def params(L, grads):
    ps = []
    for i, (shape, g) in enumerate(grads):
        p = L.nn.Parameter(L.tensor(arr(shape, i), dtype=L.float32))
        p.grad = None if g is None else L.tensor(np.asarray(g, dtype=np.float32))
        ps.append(p)
    return ps
G = [((2, 3), arr((2, 3), 10) * 3), ((3,), arr(3, 11)), ((4,), None)]
for nt in (2, 1, 0, float("inf"), 3.5, -float("inf")):
    for foreach in (None, True, False):
        def f(L, nt=nt, foreach=foreach):
            ps = params(L, G)
            tot = L.nn.utils.clip_grad_norm_(ps, 1.0, norm_type=nt, foreach=foreach)
            return [tot] + [p.grad for p in ps if p.grad is not None]
        check(f"clip_grad_norm_ {nt} {foreach}", f, 1e-5)
check("clip_grad_norm_ nan error", lambda L: (lambda ps: (ps[0].grad.__setitem__((0, 0), float("nan")), L.nn.utils.clip_grad_norm_(ps, 1.0, error_if_nonfinite=True)))(params(L, G)))
check("clip_grad_norm_ nan", lambda L: (lambda ps: (ps[0].grad.__setitem__((0, 0), float("nan")), L.nn.utils.clip_grad_norm_(ps, 1.0), ps[1].grad)[1:])(params(L, G)))
check("clip_grad_norm_ no grads", lambda L: L.nn.utils.clip_grad_norm_(params(L, [((2,), None)]), 1.0))
check("clip_grad_norm_ tensor", lambda L: (lambda ps: (L.nn.utils.clip_grad_norm_(ps[0], 0.5), ps[0].grad))(params(L, G)))
check("clip_grad_norm_ max_norm big", lambda L: (lambda ps: (L.nn.utils.clip_grad_norm_(ps, 100.0), ps[0].grad))(params(L, G)))
check("clip_grad_value_", lambda L: (lambda ps: (L.nn.utils.clip_grad_value_(ps, 0.5), ps[0].grad, ps[1].grad))(params(L, G)))
check("clip_grad_value_ foreach", lambda L: (lambda ps: (L.nn.utils.clip_grad_value_(ps, 0.5, foreach=True), ps[0].grad))(params(L, G)))
check("get_total_norm", lambda L: L.nn.utils.get_total_norm([L.tensor(g) for _, g in G[:2]], norm_type=3.0))
check("get_total_norm inf", lambda L: L.nn.utils.get_total_norm([L.tensor(g) for _, g in G[:2]], norm_type="inf"))
check("parameters_to_vector", lambda L: L.nn.utils.parameters_to_vector(params(L, G)))
check("vector_to_parameters", lambda L: (lambda ps: (L.nn.utils.vector_to_parameters(L.arange(13.0), ps), [p.data for p in ps])[1])(params(L, G)))
check("vector_to_parameters short", lambda L: (lambda ps: (L.nn.utils.vector_to_parameters(L.arange(10.0), ps), [p.data for p in ps])[1])(params(L, G)))
R = lambda L: L.nn.utils.rnn
seqs = lambda L: [L.tensor(arr((n, 2), n), dtype=L.float32) for n in (3, 1, 2)]
for bf in (False, True):
    for ps in ("right", "left"):
        check(f"pad_sequence bf={bf} {ps}", lambda L, bf=bf, ps=ps: R(L).pad_sequence(seqs(L), batch_first=bf, padding_value=-1.0, padding_side=ps))
    for es in (True, False):
        def pk(L, bf=bf, es=es):
            s = seqs(L)
            if es: s = sorted(s, key=len, reverse=True)
            pad = R(L).pad_sequence(s, batch_first=bf)
            p = R(L).pack_padded_sequence(pad, L.tensor([len(x) for x in s]), batch_first=bf, enforce_sorted=es)
            out, lens = R(L).pad_packed_sequence(p, batch_first=bf, total_length=5, padding_value=9.0)
            return [p.data, p.batch_sizes, p.sorted_indices, p.unsorted_indices, out, lens]
        check(f"pack/pad bf={bf} es={es}", pk)
check("pack_sequence unsorted", lambda L: (lambda p: [p.data, p.batch_sizes, p.sorted_indices])(R(L).pack_sequence(seqs(L), enforce_sorted=False)))
check("pack_sequence sorted raises", lambda L: R(L).pack_sequence(seqs(L), enforce_sorted=True).data)
check("unpack_sequence", lambda L: R(L).unpack_sequence(R(L).pack_sequence(seqs(L), enforce_sorted=False)))
check("unpad_sequence", lambda L: R(L).unpad_sequence(R(L).pad_sequence(seqs(L), batch_first=True), L.tensor([3, 1, 2]), batch_first=True))
check("pack lengths 0 raises", lambda L: R(L).pack_padded_sequence(L.zeros(3, 2, 1), L.tensor([3, 0]), enforce_sorted=False).data)
check("pack lengths list", lambda L: R(L).pack_padded_sequence(L.ones(3, 2, 1), [3, 2]).batch_sizes)
check("pad_sequence 1d", lambda L: R(L).pad_sequence([L.tensor([1.0, 2.0]), L.tensor([3.0])]))
check("packed .to", lambda L: R(L).pack_sequence(seqs(L), enforce_sorted=False).double().data)
def wn(L, dim):
    lin = L.nn.Linear(3, 2)
    with L.no_grad(): lin.weight.copy_(L.tensor(arr((2, 3), 4), dtype=L.float32))
    m = L.nn.utils.weight_norm(lin, dim=dim)
    return [m.weight_g, m.weight_v, m.weight]
for dim in (0, 1, None, -1):
    check(f"weight_norm dim={dim}", lambda L, dim=dim: wn(L, dim), 1e-5)
def pwn(L, dim):
    lin = L.nn.Linear(3, 2)
    with L.no_grad(): lin.weight.copy_(L.tensor(arr((2, 3), 4), dtype=L.float32))
    m = L.nn.utils.parametrizations.weight_norm(lin, dim=dim)
    po = m.parametrizations.weight
    return [po.original0, po.original1, m.weight, sorted(k for k in m.state_dict())]
for dim in (0, 1, None):
    check(f"param weight_norm dim={dim}", lambda L, dim=dim: pwn(L, dim), 1e-5)
def sn(L, param):
    lin = L.nn.Linear(3, 4)
    with L.no_grad(): lin.weight.copy_(L.tensor(arr((4, 3), 4), dtype=L.float32))
    if param: m = L.nn.utils.parametrizations.spectral_norm(lin, n_power_iterations=30)
    else: m = L.nn.utils.spectral_norm(lin, n_power_iterations=30)
    m.eval() if param == 2 else None
    w = m.weight
    return [L.linalg.matrix_norm(w.detach(), 2), sorted(k for k in m.state_dict())]
for pm in (0, 1):
    check(f"spectral_norm param={pm}", lambda L, pm=pm: sn(L, pm), 1e-3)
def prm(L):
    class Sym(L.nn.Module):
        def forward(self, X): return X.triu() + X.triu(1).mT
        def right_inverse(self, A): return A.triu()
    lin = L.nn.Linear(3, 3)
    with L.no_grad(): lin.weight.copy_(L.tensor(arr((3, 3), 4), dtype=L.float32))
    L.nn.utils.parametrize.register_parametrization(lin, "weight", Sym())
    r = [lin.weight, L.nn.utils.parametrize.is_parametrized(lin), L.nn.utils.parametrize.is_parametrized(lin, "bias"), sorted(lin.state_dict())]
    lin.weight = L.tensor(arr((3, 3), 5), dtype=L.float32)
    r.append(lin.parametrizations.weight.original)
    with L.nn.utils.parametrize.cached(): r.append(lin.weight)
    L.nn.utils.parametrize.remove_parametrizations(lin, "weight", leave_parametrized=True)
    r += [lin.weight, sorted(lin.state_dict())]
    return r
check("parametrize", prm)
def prune_(L, how):
    lin = L.nn.Linear(4, 3)
    with L.no_grad(): lin.weight.copy_(L.tensor(arr((3, 4), 4), dtype=L.float32))
    P_ = L.nn.utils.prune
    if how == "l1": P_.l1_unstructured(lin, "weight", amount=0.5)
    if how == "l1int": P_.l1_unstructured(lin, "weight", amount=5)
    if how == "ln": P_.ln_structured(lin, "weight", amount=1, n=2, dim=0)
    if how == "ln1": P_.ln_structured(lin, "weight", amount=0.5, n=1, dim=1)
    if how == "ident": P_.identity(lin, "weight")
    if how == "custom": P_.custom_from_mask(lin, "weight", L.tensor(arr((3, 4), 6) > 0))
    if how == "twice": P_.l1_unstructured(lin, "weight", amount=0.25); P_.l1_unstructured(lin, "weight", amount=0.5)
    if how == "global": P_.global_unstructured([(lin, "weight"), (lin, "bias")], pruning_method=P_.L1Unstructured, amount=4)
    r = [lin.weight, lin.weight_mask, sorted(lin.state_dict()), P_.is_pruned(lin)]
    P_.remove(lin, "weight")
    r += [lin.weight, sorted(lin.state_dict())]
    return r
for how in ("l1", "l1int", "ln", "ln1", "ident", "custom", "twice", "global"):
    check(f"prune {how}", lambda L, how=how: prune_(L, how))
print("api part3 n", n, "bad", len(bad), flush=True)

# ---- nn.init
I = lambda L: L.nn.init
for nl, p in [("linear", None), ("conv2d", None), ("sigmoid", None), ("tanh", None), ("relu", None), ("leaky_relu", None), ("leaky_relu", 0.2), ("leaky_relu", 1), ("selu", None), ("bogus", None), ("leaky_relu", True), ("leaky_relu", "x")]:
    check(f"calculate_gain {nl} {p}", lambda L, nl=nl, p=p: I(L).calculate_gain(nl, p))
for shape in [(3,), (), (4, 3), (4, 3, 2), (5, 4, 3, 2), (2, 0), (0, 3, 2), (6, 2, 1, 1, 3)]:
    check(f"fan {shape}", lambda L, shape=shape: I(L)._calculate_fan_in_and_fan_out(L.empty(shape)))
    for mode in ("fan_in", "fan_out", "bad"):
        check(f"correct_fan {shape} {mode}", lambda L, shape=shape, mode=mode: I(L)._calculate_correct_fan(L.empty(shape), mode))
    for name, kw in [("xavier_uniform_", {}), ("xavier_normal_", {"gain": 2.0}), ("kaiming_uniform_", {"a": 0.1}), ("kaiming_normal_", {"mode": "fan_out", "nonlinearity": "relu"}),
                     ("orthogonal_", {}), ("eye_", {}), ("dirac_", {}), ("dirac_", {"groups": 2}), ("sparse_", {"sparsity": 0.5}), ("trunc_normal_", {"a": -0.5, "b": 0.5}),
                     ("uniform_", {"a": 1.0, "b": 3.0}), ("normal_", {}), ("constant_", {"val": 2.5}), ("ones_", {}), ("zeros_", {}), ("kaiming_uniform_", {"mode": "bogus"}), ("kaiming_normal_", {"nonlinearity": "bogus"})]:
        def f(L, shape=shape, name=name, kw=kw):
            t = L.empty(shape if len(shape) >= 2 else shape)
            r = getattr(I(L), name)(t, **kw)
            v = r.detach().numpy().astype(np.float64)
            det = name in ("eye_", "dirac_", "constant_", "ones_", "zeros_")
            return [tuple(r.shape), r is t, v if det else None, (bool(v.size) and round(float(np.abs(v).max()), 0)) if name in ("xavier_uniform_", "kaiming_uniform_", "uniform_", "trunc_normal_") else None,
                    float((v == 0).mean()) if name == "sparse_" else None]
        check(f"init {name} {kw} {shape}", f, 1e-6)
check("orthogonal_ is orthogonal", lambda L: (lambda w: L.allclose(w @ w.T, L.eye(3), atol=1e-5))(I(L).orthogonal_(L.empty(3, 5), gain=1.0)))
check("orthogonal_ gain", lambda L: (lambda w: round(float((w @ w.T)[0, 0]), 4))(I(L).orthogonal_(L.empty(3, 5), gain=2.0)))
check("kaiming_uniform_ std", lambda L: round(float(I(L).kaiming_uniform_(L.empty(400, 500), a=math.sqrt(5)).std()), 2))
check("xavier_normal_ std", lambda L: round(float(I(L).xavier_normal_(L.empty(400, 500), gain=3.0).std()), 2))
check("trunc_normal_ range", lambda L: (lambda w: (float(w.min()) >= -0.3, float(w.max()) <= 0.2, round(float(w.mean()), 1)))(I(L).trunc_normal_(L.empty(20000), mean=0.0, std=1.0, a=-0.3, b=0.2)))
check("init on int", lambda L: I(L).normal_(L.zeros(3, dtype=L.int64)))
check("uniform_ on double", lambda L: I(L).uniform_(L.zeros(3, dtype=L.float64)).dtype)
check("init keeps requires_grad", lambda L: I(L).xavier_uniform_(L.nn.Parameter(L.empty(3, 4))).requires_grad)
check("init in graph", lambda L: I(L).constant_(L.nn.Parameter(L.empty(3, 4)), 1.0).grad_fn is None)
print("api n", n, "bad", len(bad), flush=True)
