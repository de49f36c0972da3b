"""Differential gradient fuzz against torch (a tool, not a test: torch is not in CI).
Walks torch's names that meshflow also has (torch.*, Tensor methods, nn.functional, linalg,
special, fft), calls each with a few argument patterns on edge inputs (0-d, empty,
broadcasting, non-contiguous, expanded, ties, nan/inf; float32 and float64), and compares the
forward value, the gradient of sum(out * w) and the second derivative (create_graph=True).
Each name runs in a forked child so a crash or a hang is one finding, not the end of the run.
Usage: PYTHONPATH=build/python:<torch site> python3 tests/python/fuzz/grad_fuzz.py [name ...]"""
import json, os, select, sys, warnings, math, signal
import numpy as np
warnings.filterwarnings("ignore")
import torch
import meshflow as mf
torch.set_num_threads(1)
try: mf.set_num_threads(1)
except Exception: pass

SKIP = {"dropout", "alpha_dropout", "feature_alpha_dropout", "dropout1d", "dropout2d", "dropout3d", "rrelu", "bernoulli",
        "multinomial", "normal", "poisson", "rand_like", "randn_like", "randint_like", "gumbel_softmax", "fractional_max_pool2d",
        "fractional_max_pool3d", "empty_like", "set_", "backward", "register_hook", "retain_grad", "requires_grad_", "share_memory_",
        "pin_memory", "data_ptr", "storage", "untyped_storage", "numpy", "tolist", "item", "new_empty", "new_empty_strided",
        "empty_strided", "resize_", "resize_as_", "detach_", "random_", "uniform_", "normal_", "exponential_", "cauchy_",
        "log_normal_", "geometric_", "bernoulli_", "to_sparse", "cuda", "pin_memory", "is_pinned", "record_stream", "apply_",
        "map_", "map2_", "module_load", "save", "load", "compile", "vmap", "cond", "manual_seed", "seed", "set_default_dtype",
        "set_grad_enabled", "use_deterministic_algorithms", "set_printoptions", "empty", "from_file", "native_dropout",
        "rnn_tanh", "rnn_relu", "lstm", "gru", "embedding_renorm_", "stft", "istft", "rand", "randn", "randint", "randperm",
        "is_nonzero", "nonzero_static", "type", "element_size", "cpu", "to", "double", "float", "half", "bfloat16", "set_num_threads",
        "_assert", "sym_int", "sym_float", "sym_max", "sym_min", "sym_not", "sym_ite", "sym_sqrt", "sym_sum", "get_default_dtype",
        "frombuffer", "asarray", "as_tensor", "tensor", "from_numpy", "dsplit", "align_to", "rename", "refine_names",
        "new_tensor", "__getstate__", "__setstate__", "__reduce_ex__", "__deepcopy__", "__array__", "__dlpack__"}

def arr(shape, seed, kind):
    rng = np.random.default_rng(seed)
    if kind == "ties": return rng.integers(-1, 2, size=shape).astype(np.float64)
    a = rng.uniform(-2, 2, size=shape)
    if kind == "pos": a = np.abs(a) + 0.25
    if kind == "unit": a = a / 2.5
    if kind == "naninf" and a.size >= 3:
        f = a.reshape(-1); f[0] = np.nan; f[1] = np.inf; f[2] = -np.inf
    return a

def make(L, a, dt, layout):
    """layout: plain | t (non-contiguous transpose of a stored transpose) | exp (expanded)"""
    d = getattr(L, dt)
    if layout == "t" and a.ndim == 2:
        base = L.tensor(np.ascontiguousarray(a.T), dtype=d).requires_grad_(True)
        return base, base.t()
    if layout == "exp" and a.ndim == 2:
        base = L.tensor(np.ascontiguousarray(a[:1]), dtype=d).requires_grad_(True)
        return base, base.expand(a.shape[0], a.shape[1])
    base = L.tensor(a, dtype=d).requires_grad_(True)
    return base, base

def npv(t):
    if isinstance(t, torch.Tensor) and t._is_zerotensor(): return np.zeros(tuple(t.shape))
    return t.detach().to(torch.float64).numpy() if isinstance(t, torch.Tensor) else t.detach().to(mf.float64).numpy()

def outs(r, L):
    if isinstance(r, L.Tensor): return [r]
    if isinstance(r, (tuple, list)):
        o = []
        for x in r: o += outs(x, L)
        return o
    return []

def run_case(L, fn, inputs, dt, layout, second):
    bases, xs = [], []
    for a in inputs:
        if isinstance(a, np.ndarray):
            b, x = make(L, a, dt, layout); bases.append(b); xs.append(x)
        else:
            xs.append(a)
    r = fn(L, *xs)
    os_ = outs(r, L)
    if not os_: return ("nograd", repr(r)[:60])
    vals = [(str(o.dtype).split(".")[-1], tuple(o.shape), npv(o)) for o in os_]
    floats = [o for o in os_ if o.dtype in (L.float32, L.float64) and o.requires_grad]
    if not floats: return ("vals", vals, None, None)
    loss = 0
    for i, o in enumerate(floats):
        w = L.tensor(np.random.default_rng(50 + i).uniform(0.5, 1.5, size=tuple(o.shape)), dtype=o.dtype)
        loss = loss + (o * w).sum()
    gs = L.autograd.grad(loss, bases, allow_unused=True, create_graph=second)
    g1 = [None if g is None else npv(g) for g in gs]
    g2 = None
    if second:
        try:
            s = 0
            for i, g in enumerate(gs):
                if g is not None and g.requires_grad:
                    s = s + (g * L.tensor(np.random.default_rng(70 + i).uniform(0.5, 1.5, size=tuple(g.shape)), dtype=g.dtype)).sum()
            if isinstance(s, int): g2 = "none"
            else:
                h = L.autograd.grad(s, bases, allow_unused=True)
                g2 = [None if x is None else npv(x) for x in h]
        except Exception as e:
            g2 = ("raise", type(e).__name__ + ": " + str(e)[:100])
    return ("vals", vals, g1, g2)

def close(a, b, tol):
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        if a.shape != b.shape: return False
        return np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)
    return a is None and b is None  # 'none' vs zero grads treated below

def zeroish(x): return x is None or (isinstance(x, np.ndarray) and not np.any(x))

def compare(t, m, tol):
    if t[0] == "raise" or m[0] == "raise":
        if t[0] == m[0]: return None
        return f"torch {t[:2] if t[0]=='raise' else 'ok'} | mf {m[:2] if m[0]=='raise' else 'ok'}"
    if t[0] != m[0]: return f"kind {t[0]} vs {m[0]}"
    if t[0] == "nograd": return None
    tv, mv = t[1], m[1]
    if len(tv) != len(mv): return f"n outputs {len(tv)} vs {len(mv)}"
    for (td, ts, ta), (md, ms, ma) in zip(tv, mv):
        if ts != ms: return f"out shape {ts} vs {ms}"
        if td != md: return f"out dtype {td} vs {md}"
        if not close(ta, ma, tol): return f"OUT differs max {np.nanmax(np.abs(ta - ma)) if ta.size else 0}"
    if (t[2] is None) != (m[2] is None): return f"grad presence {t[2] is None} vs {m[2] is None}"
    if t[2] is not None:
        for i, (a, b) in enumerate(zip(t[2], m[2])):
            if (a is None or b is None):
                if not (zeroish(a) and zeroish(b)): return f"GRAD{i} None-ness torch {a is None} mf {b is None}"
                continue
            if not close(a, b, tol):
                return f"GRAD{i} differs max {np.nanmax(np.abs(a - b)) if a.shape == b.shape and a.size else (a.shape, b.shape)} t={a.ravel()[:6]} m={b.ravel()[:6]}"
    if t[3] is not None or m[3] is not None:
        a, b = t[3], m[3]
        if isinstance(a, tuple) or isinstance(b, tuple):
            if not (isinstance(a, tuple) and isinstance(b, tuple)): return f"2ND torch {a if isinstance(a, tuple) else 'ok'} mf {b if isinstance(b, tuple) else 'ok'}"
        elif a == "none" or b == "none":
            if not (a == "none" or all(zeroish(x) for x in a)) or not (b == "none" or all(zeroish(x) for x in b)):
                return f"2ND torch {'none' if a == 'none' else 'vals'} mf {'none' if b == 'none' else 'vals'}"
        else:
            for i, (x, y) in enumerate(zip(a, b)):
                if x is None or y is None:
                    if not (zeroish(x) and zeroish(y)): return f"2ND{i} None-ness"
                    continue
                if not close(x, y, tol * 10): return f"2ND{i} differs max {np.nanmax(np.abs(x - y)) if x.shape == y.shape and x.size else (x.shape, y.shape)}"
    return None

def safe(L, *a):
    try: return run_case(L, *a)
    except Exception as e: return ("raise", type(e).__name__, str(e)[:100].replace("\n", " "))

S = (3, 4)
# argument patterns: (label, fn(L, *xs), input arrays (np) or other literals, layouts allowed)
def patterns(ns, name):
    def get(L):
        if ns == "method": return None
        mod = {"torch": L, "F": L.nn.functional, "linalg": L.linalg, "special": L.special, "fft": L.fft}[ns]
        return getattr(mod, name)
    if ns == "method":
        call = lambda L, x, *a, **k: getattr(x, name)(*a, **k)
    else:
        call = lambda L, *a, **k: get(L)(*a, **k)
    P = []
    for kind in ("rand", "pos", "unit", "ties", "naninf"):
        P.append((f"u {kind}", lambda L, x: call(L, x), [arr(S, 0, kind)]))
    P.append(("u 0d", lambda L, x: call(L, x), [arr((), 0, "pos")]))
    P.append(("u empty", lambda L, x: call(L, x), [arr((0, 3), 0, "rand")]))
    P.append(("u 3d", lambda L, x: call(L, x), [arr((2, 3, 4), 0, "pos")]))
    P.append(("b same", lambda L, x, y: call(L, x, y), [arr(S, 0, "pos"), arr(S, 1, "pos")]))
    P.append(("b ties", lambda L, x, y: call(L, x, y), [arr(S, 0, "ties"), arr(S, 1, "ties")]))
    P.append(("b bcast", lambda L, x, y: call(L, x, y), [arr((3, 1), 0, "pos"), arr((4,), 1, "pos")]))
    P.append(("b 0d", lambda L, x, y: call(L, x, y), [arr(S, 0, "pos"), arr((), 1, "pos")]))
    P.append(("b naninf", lambda L, x, y: call(L, x, y), [arr(S, 0, "naninf"), arr(S, 1, "pos")]))
    P.append(("b scalar", lambda L, x: call(L, x, 2), [arr(S, 0, "pos")]))
    P.append(("b scalarf", lambda L, x: call(L, x, 0.5), [arr(S, 0, "pos")]))
    P.append(("mm", lambda L, x, y: call(L, x, y), [arr((3, 4), 0, "rand"), arr((4, 2), 1, "rand")]))
    P.append(("sq", lambda L, x: call(L, x), [arr((3, 3), 0, "rand") + 3 * np.eye(3)]))
    P.append(("sq batch", lambda L, x: call(L, x), [arr((2, 3, 3), 0, "rand") + 3 * np.eye(3)]))
    P.append(("spd", lambda L, x: call(L, x @ x.mT + L.eye(3, dtype=x.dtype)), [arr((3, 3), 0, "rand")]))
    for kind in ("rand", "ties", "naninf"):
        P.append((f"d1 {kind}", lambda L, x: call(L, x, 1), [arr(S, 0, kind)]))
        P.append((f"d0k {kind}", lambda L, x: call(L, x, dim=0, keepdim=True), [arr(S, 0, kind)]))
        P.append((f"d-1 {kind}", lambda L, x: call(L, x, dim=-1), [arr(S, 0, kind)]))
    P.append(("d 0d", lambda L, x: call(L, x, 0), [arr((), 0, "rand")]))
    P.append(("dk 0d", lambda L, x: call(L, x, dim=0, keepdim=True), [arr((), 0, "rand")]))
    P.append(("d empty", lambda L, x: call(L, x, 1), [arr((0, 3), 0, "rand")]))
    P.append(("d ties 3d", lambda L, x: call(L, x, 1), [arr((2, 3, 4), 0, "ties")]))
    P.append(("k2", lambda L, x: call(L, x, 2), [arr(S, 0, "ties")]))
    P.append(("k2 d0", lambda L, x: call(L, x, 2, 0), [arr(S, 0, "ties")]))
    P.append(("t same", lambda L, x, y, z: call(L, x, y, z), [arr(S, 0, "pos"), arr(S, 1, "pos"), arr(S, 2, "pos")]))
    P.append(("t bcast", lambda L, x, y, z: call(L, x, y, z), [arr((3, 1), 0, "pos"), arr((4,), 1, "pos"), arr((), 2, "pos")]))
    return P

def names():
    out = []
    def walk(ns, tmod, mmod):
        for n in sorted(dir(tmod)):
            if n.startswith("_") and not (ns == "method" and n in ("__add__", "__mul__", "__truediv__", "__pow__", "__rpow__", "__rsub__", "__rtruediv__", "__matmul__", "__mod__", "__floordiv__", "__getitem__", "__abs__", "__neg__")): continue
            if n in SKIP or n.endswith("_") and not n.endswith("__"): continue
            if not hasattr(mmod, n): continue
            if not callable(getattr(tmod, n, None)): continue
            if isinstance(getattr(tmod, n), type): continue
            out.append((ns, n))
    walk("torch", torch, mf)
    walk("method", torch.Tensor, mf.Tensor)
    walk("F", torch.nn.functional, mf.nn.functional)
    walk("linalg", torch.linalg, mf.linalg)
    walk("special", torch.special, mf.special)
    walk("fft", torch.fft, mf.fft)
    return out

def fuzz_name(ns, name):
    res = []; n = 0
    for label, fn, inputs in patterns(ns, name):
        layouts = ["plain"] + (["t", "exp"] if label in ("u rand", "b same", "d1 rand", "u ties", "d1 ties") else [])
        for dt in ("float64", "float32"):
            for layout in layouts:
                if dt == "float32" and layout != "plain": continue
                t = safe(torch, fn, inputs, dt, layout, dt == "float64")
                if t[0] == "raise": break  # torch refuses this pattern; meshflow may do more
                m = safe(mf, fn, inputs, dt, layout, dt == "float64")
                n += 1
                d = compare(t, m, 1e-5 if dt == "float64" else 2e-4)
                if d: res.append(f"{ns}.{name} [{label} {dt} {layout}]: {d}")
            else: continue
            break
    return n, res

def main():
    only = sys.argv[1:]
    todo = [x for x in names() if not only or x[1] in only or f"{x[0]}.{x[1]}" in only]
    total = 0; found = []
    for ns, name in todo:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            signal.alarm(60)
            try: n, res = fuzz_name(ns, name)
            except BaseException as e: n, res = 0, [f"{ns}.{name}: harness {type(e).__name__} {e}"]
            os.write(w, json.dumps([n, res]).encode()); os._exit(0)
        os.close(w)
        data = b""
        while True:
            chunk = os.read(r, 65536)
            if not chunk: break
            data += chunk
        os.close(r)
        _, status = os.waitpid(pid, 0)
        if not data:
            found.append(f"{ns}.{name}: CHILD DIED status {status}"); print(found[-1], flush=True); continue
        n, res = json.loads(data)
        total += n
        for x in res: print(x, flush=True)
        found += res
    print(f"names {len(todo)} cases {total} differences {len(found)}")

if __name__ == "__main__":
    main()
