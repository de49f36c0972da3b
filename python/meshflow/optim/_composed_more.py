"""Optimizers composed of meshflow ops in Python, as torch's algorithms: LBFGS (its step calls
a closure, so it steps in eager code only), SparseAdam and Adafactor. They share Optimizer's interface
(optim/__init__.py) (param_groups, state keyed by parameter, state_dict in torch's structure,
schedulers). Every per-parameter buffer is made like its parameter (zeros_like), so a global
parameter's state is global with the parameter's placement and SBP and a step moves no data;
step is a 0-d float32 tensor, as torch's."""
from .._ops_creation import zeros_like
from .._ops_elementwise import where
from .._tensor import no_grad, tensor
from . import Optimizer


def _step(state):
    state["step"] = state["step"] + 1 if "step" in state else tensor(1.0)
    return float(state["step"].item())


def _check(name, lr, eps=0.0, betas=(0.0, 0.0), weight_decay=0.0):
    if not 0.0 <= lr:
        raise ValueError(f"{name}: invalid learning rate: {lr}; expected lr >= 0")
    if not 0.0 <= eps:
        raise ValueError(f"{name}: invalid epsilon value: {eps}; expected eps >= 0")
    for i, beta in enumerate(betas):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"{name}: invalid beta parameter at index {i}: {beta}; expected 0 <= beta < 1")
    if not 0.0 <= weight_decay:
        raise ValueError(f"{name}: invalid weight_decay value: {weight_decay}; expected weight_decay >= 0")


# ---------------------------------------------------------------------------------------------
# L-BFGS. torch's algorithm on one flat vector of every parameter; here a direction is a list
# of tensors, one per parameter, each in its parameter's layout, so global parameters need no
# gathering: dot products and norms reduce per parameter, then over the list.

def _dot(a, b):
    total = None
    for x, y in zip(a, b):
        s = (x * y).sum()
        total = s if total is None else total + s
    return float(total.item())


def _abs_max(a):
    return max(float(x.abs().max().item()) for x in a)


def _abs_sum(a):
    return sum(float(x.abs().sum().item()) for x in a)


def _axpy(alpha, x, y):
    """y + alpha * x, per tensor."""
    return [v + u * alpha for u, v in zip(x, y)]


def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    xmin_bound, xmax_bound = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square ** 0.5
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, xmin_bound), xmax_bound)
    return (xmin_bound + xmax_bound) / 2.0


def _zoom(obj_func, d, t, f, gtd, found, done, ls_iter, c1, c2, tolerance_change, max_ls):
    """The strong-Wolfe search's second phase: shrink the bracket [t_lo, t_hi] (torch's)."""
    bracket, bracket_f, bracket_g, bracket_gtd = found
    d_norm = _abs_max(d)
    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1])
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insuf_progress or t >= max(bracket) or t <= min(bracket):
                t = max(bracket) - eps if abs(t - max(bracket)) < abs(t - min(bracket)) else min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        f_new, g_new = obj_func(t)
        ls_iter += 1
        gtd_new = _dot(g_new, d)
        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low_pos]:
            bracket[high_pos], bracket_f[high_pos], bracket_g[high_pos], bracket_gtd[high_pos] = t, f_new, g_new, \
                gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                bracket[high_pos], bracket_f[high_pos] = bracket[low_pos], bracket_f[low_pos]
                bracket_g[high_pos], bracket_gtd[high_pos] = bracket_g[low_pos], bracket_gtd[low_pos]
            bracket[low_pos], bracket_f[low_pos], bracket_g[low_pos], bracket_gtd[low_pos] = t, f_new, g_new, gtd_new
    return bracket_f[low_pos], bracket_g[low_pos], bracket[low_pos], ls_iter


def _strong_wolfe(obj_func, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """torch's line search: bracket a step satisfying the strong Wolfe conditions, then zoom.
    Returns (loss, gradient, step, evaluations)."""
    f_new, g_new = obj_func(t)
    gtd_new = _dot(g_new, d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done, found, ls_iter = False, None, 0
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            found = ([t_prev, t], [f_prev, f_new], [g_prev, g_new], [gtd_prev, gtd_new])
            break
        if abs(gtd_new) <= -c2 * gtd:
            found, done = ([t], [f_new], [g_new], [gtd_new]), True
            break
        if gtd_new >= 0:
            found = ([t_prev, t], [f_prev, f_new], [g_prev, g_new], [gtd_prev, gtd_new])
            break
        min_step, max_step = t + 0.01 * (t - t_prev), t * 10
        t_prev, t = t, _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(min_step, max_step))
        f_prev, g_prev, gtd_prev = f_new, g_new, gtd_new
        f_new, g_new = obj_func(t)
        gtd_new = _dot(g_new, d)
        ls_iter += 1
    if ls_iter == max_ls:
        found = ([0, t], [f, f_new], [g, g_new], [gtd, gtd_new])
    f_new, g_new, t, ls_iter = _zoom(obj_func, d, t, f, gtd, found, done, ls_iter, c1, c2, tolerance_change, max_ls)
    return f_new, g_new, t, ls_iter + 1


class LBFGS(Optimizer):
    """torch.optim.LBFGS: step(closure) runs up to max_iter iterations of L-BFGS, with
    line_search_fn None (fixed step lr) or "strong_wolfe". One parameter group, as torch's.
    Its state (on the first parameter, as torch's) holds directions as lists of tensors, one
    per parameter, where torch holds flat vectors."""

    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                 history_size=100, line_search_fn=None, *, maximize=False):
        _check("LBFGS", lr)
        if line_search_fn not in (None, "strong_wolfe"):
            raise ValueError(f"LBFGS: line_search_fn {line_search_fn!r}; expected None or 'strong_wolfe'")
        max_eval = max_iter * 5 // 4 if max_eval is None else max_eval
        super().__init__(params, dict(lr=lr, max_iter=max_iter, max_eval=max_eval, tolerance_grad=tolerance_grad,
                                      tolerance_change=tolerance_change, history_size=history_size,
                                      line_search_fn=line_search_fn, maximize=maximize))
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def _grads(self):
        sign = -1 if self.param_groups[0]["maximize"] else 1
        return [zeros_like(p) if p.grad is None else p.grad * sign for p in self._params]

    def _loss(self, closure):
        from ..autograd import enable_grad
        with enable_grad():
            loss = closure()
        return loss, -float(loss) if self.param_groups[0]["maximize"] else float(loss)

    def _move(self, t, d):
        for p, u in zip(self._params, d):
            p.add_(u * t)

    def _directional_evaluate(self, closure, x, t, d):
        self._move(t, d)
        loss = self._loss(closure)[1]
        grads = self._grads()
        for p, v in zip(self._params, x):
            p.copy_(v)
        return loss, grads

    def _direction(self, state, grad, history_size):
        """The next search direction from the curvature pairs (two-loop recursion), updating them."""
        if state["n_iter"] == 1:
            state.update(old_dirs=[], old_stps=[], ro=[], H_diag=1.0)
            return [-g for g in grad]
        y = [a - b for a, b in zip(grad, state["prev_flat_grad"])]
        s = [u * state["t"] for u in state["d"]]
        ys = _dot(y, s)
        old_dirs, old_stps, ro = state["old_dirs"], state["old_stps"], state["ro"]
        if ys > 1e-10:
            if len(old_dirs) == history_size:
                old_dirs.pop(0), old_stps.pop(0), ro.pop(0)
            old_dirs.append(y), old_stps.append(s), ro.append(1.0 / ys)
            state["H_diag"] = ys / _dot(y, y)
        al = state.setdefault("al", [None] * history_size)
        q = [-g for g in grad]
        for i in range(len(old_dirs) - 1, -1, -1):
            al[i] = _dot(old_stps[i], q) * ro[i]
            q = _axpy(-al[i], old_dirs[i], q)
        r = [u * state["H_diag"] for u in q]
        for i in range(len(old_dirs)):
            be_i = _dot(old_dirs[i], r) * ro[i]
            r = _axpy(al[i] - be_i, old_stps[i], r)
        return r

    def step(self, closure):
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        with no_grad():
            orig_loss, loss = self._loss(closure)
            current_evals = 1
            state["func_evals"] += 1
            grad = self._grads()
            if _abs_max(grad) <= tolerance_grad:
                return orig_loss
            n_iter = 0
            while n_iter < max_iter:
                n_iter += 1
                state["n_iter"] += 1
                state["d"] = d = self._direction(state, grad, group["history_size"])
                state["prev_flat_grad"], state["prev_loss"] = [g.clone() for g in grad], loss
                prev_loss = loss
                state["t"] = t = min(1.0, 1.0 / _abs_sum(grad)) * lr if state["n_iter"] == 1 else lr
                gtd = _dot(grad, d)
                if gtd > -tolerance_change:
                    break
                ls_func_evals = 0
                if group["line_search_fn"] is not None:
                    x_init = [p.clone() for p in self._params]
                    loss, grad, t, ls_func_evals = _strong_wolfe(
                        lambda t_: self._directional_evaluate(closure, x_init, t_, d), t, d, loss, grad, gtd,
                        max_ls=max_eval - current_evals)
                    self._move(t, d)
                    opt_cond = _abs_max(grad) <= tolerance_grad
                else:
                    self._move(t, d)
                    opt_cond = False
                    if n_iter != max_iter:
                        loss = self._loss(closure)[1]
                        grad = self._grads()
                        opt_cond = _abs_max(grad) <= tolerance_grad
                        ls_func_evals = 1
                state["t"] = t
                current_evals += ls_func_evals
                state["func_evals"] += ls_func_evals
                if n_iter == max_iter or current_evals >= max_eval or opt_cond:
                    break
                if _abs_max(d) * abs(t) <= tolerance_change or abs(loss - prev_loss) < tolerance_change:
                    break
        return orig_loss



class SparseAdam(Optimizer):
    """torch.optim.SparseAdam: Adam on the rows a sparse gradient touches (an
    Embedding(sparse=True)'s), their moments and values only; the other rows and their moments
    stay. meshflow's sparse embedding gradients are dense with the sparse one's values, so a
    row is touched where its gradient has a nonzero element (a touched row whose gradient is
    exactly zero is skipped, where torch would decay its moments)."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        _check("SparseAdam", lr, eps, betas)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, maximize=maximize))

    def _update(self, p, grad, state, group):
        step = _step(state)
        beta1, beta2 = group["betas"]
        grad = -grad if group["maximize"] else grad
        touched = (grad != 0).reshape(grad.shape[0], -1).any(1).reshape(-1, *([1] * (grad.ndim - 1))) \
            if grad.ndim else grad != 0
        m0, v0 = state.get("exp_avg", zeros_like(p)), state.get("exp_avg_sq", zeros_like(p))
        m = where(touched, m0 + (grad - m0) * (1 - beta1), m0)
        v = where(touched, v0 + (grad * grad - v0) * (1 - beta2), v0)
        state["exp_avg"], state["exp_avg_sq"] = m, v
        step_size = group["lr"] * (1 - beta2 ** step) ** 0.5 / (1 - beta1 ** step)
        p.sub_(where(touched, m / (v.sqrt() + group["eps"]) * step_size, 0.0))


class Adafactor(Optimizer):
    """torch.optim.Adafactor: the second moment of a matrix (or a stack of them: the last two
    dims) factored into row and column means of the squared gradient (state "row_var" [..., R,
    1] and "col_var" [..., 1, C]; a vector's is "variance"), each moved toward the step's mean
    by step ** beta2_decay; the update grad / sqrt(estimate) is clipped to RMS d and scaled
    by max(eps2, RMS(param)) * min(lr, 1 / sqrt(step)); weight_decay is decoupled
    (param * (1 - lr * weight_decay)). eps1 None is the dtype's machine epsilon, as torch's.
    The two RMS values are read on the host, as torch's .item()s."""

    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0, weight_decay=0.0, *,
                 foreach=None, maximize=False):
        _check("Adafactor", float(lr), weight_decay=weight_decay)
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if (eps[0] is not None and not 0.0 <= eps[0]) or not 0.0 <= eps[1]:
            raise ValueError(f"Adafactor: invalid eps {eps}; expected (None or >= 0, >= 0)")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        super().__init__(params, dict(lr=lr, beta2_decay=beta2_decay, eps=tuple(eps), d=d, weight_decay=weight_decay,
                                      foreach=foreach, maximize=maximize))

    def _update(self, p, grad, state, group):
        from .. import finfo
        if not state:
            state["step"] = tensor(0.0)
            if grad.ndim > 1:
                state["row_var"] = zeros_like(grad).sum(-1, keepdim=True)
                state["col_var"] = zeros_like(grad).sum(-2, keepdim=True)
            else:
                state["variance"] = zeros_like(grad)
        step = _step(state)
        lr, (eps1, eps2) = float(group["lr"]), group["eps"]
        eps1 = finfo(p.dtype).eps if eps1 is None else eps1
        grad = -grad if group["maximize"] else grad
        decay = step ** group["beta2_decay"]
        alpha = max(eps2, p.norm().item() / p.numel() ** 0.5) * min(lr, 1 / step ** 0.5)
        if group["weight_decay"] != 0:
            p.mul_(1 - lr * group["weight_decay"])
        squared = grad * grad
        if grad.ndim > 1:
            row_var = state["row_var"].lerp_(squared.mean(-1, keepdim=True), decay)
            col_var = state["col_var"].lerp_(squared.mean(-2, keepdim=True), decay)
            estimate = (row_var @ col_var) / row_var.mean(-2, keepdim=True).clamp(min=eps1)
        else:
            estimate = state["variance"].lerp_(squared, decay)
        update = estimate.clamp(min=eps1 * eps1).rsqrt() * grad
        denom = max(1.0, update.norm().item() / (update.numel() ** 0.5 * group["d"]))
        p.add_(update, alpha=-alpha / denom)
