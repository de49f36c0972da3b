"""What ported programs met (issue 37, tenth programs round: reinforcement learning, scientific
computing, classical ML, graph nets, recommenders, contrastive learning, distillation,
diffusion, NeRF sampling, time series, mixture density nets and the numerics programs print).
Each program is written as for PyTorch (`T` is the torch module, here meshflow) and runs on
meshflow; its outputs are checked against what the same program gave under torch 2 with the same
initial weights (EXPECTED: small outputs whole, larger ones as their sum, absolute sum and a
cosine-weighted sum, which a wrong or permuted value changes). Values drawn from a generator
(samples, negatives) are checked for shape and range only."""
import math

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F


def init(model, T, seed=0, scale=0.3):
    """The program's initial weights from NumPy (torch's generator is not meshflow's)."""
    rng = np.random.default_rng(seed)
    with T.no_grad():
        for _, p in model.named_parameters():
            p.copy_(T.tensor((rng.standard_normal(tuple(p.shape)) * scale).astype(np.float32)))
    return model


def arr(seed, *shape, scale=1.0):
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


PROGS = {}
def prog(f):
    PROGS[f.__name__] = f
    return f


@prog
def reinforce(T, nn, F):
    D = T.distributions
    pol = init(nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3)), T)
    opt = T.optim.Adam(pol.parameters(), lr=0.01)
    obs = T.tensor(arr(1, 8, 4))
    acts = T.tensor(np.array([0, 1, 2, 1, 0, 2, 2, 1]))
    rewards = [1.0, 0.5, -0.2, 0.3, 1.0, 0.0, -1.0, 0.7]
    R, ret = 0.0, []
    for r in reversed(rewards):
        R = r + 0.99 * R
        ret.insert(0, R)
    ret = T.tensor(ret)
    ret = (ret - ret.mean()) / (ret.std() + 1e-8)
    out = {}
    for it in range(3):
        dist = D.Categorical(logits=pol(obs))
        lp = dist.log_prob(acts)
        loss = -(lp * ret).sum() - 0.01 * dist.entropy().mean()
        opt.zero_grad(); loss.backward(); opt.step()
        out[f"loss{it}"] = loss.item()
    s = dist.sample()
    out["sample_ok"] = float(s.shape == (8,) and int(s.max()) <= 2 and s.dtype == T.int64)
    out["probs"] = dist.probs
    return out


@prog
def actor_critic_normal(T, nn, F):
    D = T.distributions
    class AC(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Linear(3, 8)
            self.mu = nn.Linear(8, 2)
            self.log_std = nn.Parameter(T.zeros(2))
            self.v = nn.Linear(8, 1)
        def forward(self, x):
            h = F.relu(self.body(x))
            return D.Normal(self.mu(h), self.log_std.exp()), self.v(h).squeeze(-1)
    m = init(AC(), T)
    opt = T.optim.RMSprop(m.parameters(), lr=0.01)
    x = T.tensor(arr(2, 6, 3)); a = T.tensor(arr(3, 6, 2)); r = T.tensor(arr(4, 6))
    out = {}
    for it in range(3):
        dist, v = m(x)
        adv = (r - v).detach()
        lp = dist.log_prob(a).sum(-1)
        loss = -(lp * adv).mean() + F.smooth_l1_loss(v, r) - 0.001 * dist.entropy().sum(-1).mean()
        opt.zero_grad(); loss.backward()
        nn.utils.clip_grad_norm_(m.parameters(), 0.5)
        opt.step()
        out[f"loss{it}"] = loss.item()
    out["rs"] = tuple(dist.rsample().shape) == (6, 2)
    out["cdf"] = dist.cdf(a)
    return out


@prog
def replay_dqn(T, nn, F):
    q = init(nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2)), T)
    tq = init(nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2)), T, seed=5)
    tq.load_state_dict(q.state_dict())
    opt = T.optim.SGD(q.parameters(), lr=0.05, momentum=0.9)
    buf = [(arr(10 + i, 4), i % 2, float(i) / 10, arr(20 + i, 4), i == 7) for i in range(10)]
    idx = [0, 3, 5, 7, 9]
    s = T.stack([T.tensor(buf[i][0]) for i in idx])
    a = T.tensor([buf[i][1] for i in idx]).unsqueeze(1)
    r = T.tensor([buf[i][2] for i in idx], dtype=T.float32)
    s2 = T.stack([T.from_numpy(buf[i][3]) for i in idx])
    d = T.tensor([buf[i][4] for i in idx], dtype=T.float32)
    out = {}
    for it in range(3):
        qsa = q(s).gather(1, a).squeeze(1)
        with T.no_grad():
            tgt = r + 0.99 * tq(s2).max(1)[0] * (1 - d)
        loss = F.mse_loss(qsa, tgt)
        opt.zero_grad(); loss.backward(); opt.step()
        out[f"loss{it}"] = loss.item()
    with T.no_grad():
        for tp, p in zip(tq.parameters(), q.parameters()):
            tp.mul_(0.9).add_(0.1 * p)
    out["tq"] = tq[0].weight
    out["greedy"] = q(s).argmax(dim=1)
    return out


@prog
def ppo_clip(T, nn, F):
    D = T.distributions
    pol = init(nn.Linear(5, 4), T)
    opt = T.optim.Adam(pol.parameters(), lr=3e-3, eps=1e-5)
    x = T.tensor(arr(6, 10, 5)); acts = T.tensor(np.arange(10) % 4)
    with T.no_grad():
        old_logits = pol(x)
        old_lp = D.Categorical(logits=old_logits).log_prob(acts)
    adv = T.tensor(arr(7, 10))
    out = {}
    for it in range(4):
        dist = D.Categorical(logits=pol(x))
        ratio = (dist.log_prob(acts) - old_lp).exp()
        l = -T.min(ratio * adv, T.clamp(ratio, 0.8, 1.2) * adv).mean()
        opt.zero_grad(); l.backward(); opt.step()
        out[f"l{it}"] = l.item()
    out["kl"] = D.kl_divergence(D.Categorical(logits=pol(x)), D.Categorical(logits=old_logits)).mean()
    return out


@prog
def gae(T, nn, F):
    r = T.tensor(arr(8, 12)); v = T.tensor(arr(9, 13)); done = T.tensor((np.arange(12) % 5 == 4).astype(np.float32))
    adv = T.zeros(12); last = 0.0
    for t in reversed(range(12)):
        nonterm = 1.0 - done[t]
        delta = r[t] + 0.99 * v[t + 1] * nonterm - v[t]
        last = delta + 0.99 * 0.95 * nonterm * last
        adv[t] = last
    return {"adv": adv, "ret": adv + v[:-1]}


@prog
def pinn(T, nn, F):
    net = init(nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1)), T, scale=0.5)
    opt = T.optim.Adam(net.parameters(), lr=1e-2)
    x = T.linspace(0, 1, 20).reshape(-1, 1).requires_grad_(True)
    out = {}
    for it in range(3):
        u = net(x)
        du = T.autograd.grad(u, x, grad_outputs=T.ones_like(u), create_graph=True)[0]
        d2u = T.autograd.grad(du.sum(), x, create_graph=True)[0]
        res = d2u + math.pi ** 2 * T.sin(math.pi * x)
        x0 = T.zeros(1, 1)
        loss = (res ** 2).mean() + net(x0).pow(2).mean() + (net(T.ones(1, 1)) ** 2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        out[f"loss{it}"] = loss.item()
    return out


@prog
def func_jacrev_vmap(T, nn, F):
    func = T.func
    W = T.tensor(arr(11, 3, 3)); xs = T.tensor(arr(12, 4, 3))
    f = lambda x: T.tanh(W @ x).sum()
    g = func.vmap(func.grad(f))(xs)
    J = func.jacrev(lambda x: T.sin(W @ x))(xs[0])
    Jf = func.jacfwd(lambda x: T.sin(W @ x))(xs[0])
    H = func.hessian(f)(xs[1])
    bj = func.vmap(func.jacrev(lambda x: x ** 2 * 3))(xs)
    return {"g": g, "J": J, "Jf": Jf, "H": H, "bj": bj}


@prog
def functional_call_ensemble(T, nn, F):
    func = T.func
    net = init(nn.Linear(3, 2), T)
    params = {k: v.detach() for k, v in net.named_parameters()}
    x = T.tensor(arr(13, 5, 3))
    def loss(p, x):
        return func.functional_call(net, p, (x,)).pow(2).sum()
    gr = func.grad(loss)(params, x)
    per_sample = func.vmap(func.grad(loss), in_dims=(None, 0))(params, x.unsqueeze(1))
    return {"gw": gr["weight"], "gb": gr["bias"], "psw": per_sample["weight"]}


@prog
def ode_rk4(T, nn, F):
    A = T.tensor([[0.0, 1.0], [-1.0, -0.1]])
    f = lambda y: y @ A.T
    y = T.tensor([[1.0, 0.0], [0.5, 0.5]]); h = 0.1
    traj = [y]
    for _ in range(50):
        k1 = f(y); k2 = f(y + h / 2 * k1); k3 = f(y + h / 2 * k2); k4 = f(y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        traj.append(y)
    traj = T.stack(traj)
    return {"y": y, "energy": (traj ** 2).sum(-1).mean(0), "tz": T.trapezoid(traj[:, 0, 0], dx=h)}


@prog
def neural_ode_euler(T, nn, F):
    net = init(nn.Sequential(nn.Linear(2, 8), nn.Softplus(), nn.Linear(8, 2)), T)
    opt = T.optim.SGD(net.parameters(), lr=0.1)
    y0 = T.tensor(arr(14, 4, 2)); target = T.tensor(arr(15, 4, 2))
    out = {}
    for it in range(2):
        y = y0
        for _ in range(10):
            y = y + 0.1 * net(y)
        loss = F.mse_loss(y, target)
        opt.zero_grad(); loss.backward(); opt.step()
        out[f"loss{it}"] = loss.item()
    return out


@prog
def linalg_prog(T, nn, F):
    A = T.tensor(arr(17, 5, 5)); A = A @ A.T + 5 * T.eye(5)
    b = T.tensor(arr(18, 5, 2))
    x = T.linalg.solve(A, b)
    ev, evec = T.linalg.eigh(A)
    M = T.tensor(arr(19, 8, 3)); y = T.tensor(arr(20, 8, 1))
    sol = T.linalg.lstsq(M, y).solution
    U, S, Vh = T.linalg.svd(M, full_matrices=False)
    L = T.linalg.cholesky(A)
    return {"x": x, "ev": ev, "ev0abs": evec[:, 0].abs(), "sol": sol, "S": S, "rec": U @ T.diag(S) @ Vh,
            "L": L, "det": T.linalg.det(A), "slog": T.linalg.slogdet(A)[1], "inv": T.linalg.inv(A),
            "nrm": T.linalg.norm(M), "vn": T.linalg.vector_norm(M, ord=1, dim=0), "mn": T.linalg.matrix_norm(M)}


@prog
def kmeans(T, nn, F):
    rng = np.random.default_rng(21)
    X = T.tensor(np.concatenate([rng.standard_normal((20, 2)) + c for c in ([0, 0], [5, 5],
                                                                            [0, 5])]).astype(np.float32))
    C = X[[0, 20, 40]].clone()
    for _ in range(5):
        d = T.cdist(X, C)
        lab = d.argmin(dim=1)
        sums = T.zeros_like(C).index_add_(0, lab, X)
        cnt = T.bincount(lab, minlength=3).float().unsqueeze(1)
        C = sums / cnt.clamp(min=1)
    inertia = (X - C[lab]).pow(2).sum()
    return {"C": C, "lab": lab, "inertia": inertia, "cnt": T.bincount(lab)}


@prog
def logreg_lbfgs(T, nn, F):
    X = T.tensor(arr(22, 40, 3)); wtrue = T.tensor([1.5, -2.0, 0.5])
    y = (X @ wtrue > 0).float()
    model = init(nn.Linear(3, 1), T, scale=0.1)
    opt = T.optim.LBFGS(model.parameters(), lr=1, max_iter=20, history_size=10, line_search_fn="strong_wolfe")
    def closure():
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(model(X).squeeze(1), y) + 1e-2 * model.weight.pow(2).sum()
        loss.backward()
        return loss
    l0 = opt.step(closure)
    l1 = closure()
    return {"l0": l0.item(), "l1": l1.item(), "w": model.weight}


@prog
def pca_svd(T, nn, F):
    X = T.tensor(arr(23, 30, 4)) @ T.tensor(arr(24, 4, 4))
    Xc = X - X.mean(0, keepdim=True)
    U, S, V = T.svd(Xc)
    var = S ** 2 / (X.shape[0] - 1)
    ratio = var / var.sum()
    proj = Xc @ V[:, :2]
    cov = T.cov(Xc.T)
    pl = T.pca_lowrank(Xc, q=4, center=False)[1]
    return {"ratio": ratio, "projabs": proj.abs(), "cov": cov, "S": S, "pl": pl, "svl": T.svd_lowrank(Xc, q=4)[1],
            "svlv": T.svd_lowrank(Xc.T, q=4, niter=3)[2].abs(), "cc": T.corrcoef(X.T)}


@prog
def gcn(T, nn, F):
    edge = T.tensor([[0, 1, 1, 2, 3, 4, 2, 0], [1, 0, 2, 1, 4, 3, 0, 2]])
    N = 5
    x = T.tensor(arr(25, N, 4))
    lin = init(nn.Linear(4, 3), T)
    opt = T.optim.Adam(lin.parameters(), lr=0.01)
    src, dst = edge
    deg = T.zeros(N).scatter_add_(0, dst, T.ones(dst.shape[0])) + 1
    norm = deg[src].rsqrt() * deg[dst].rsqrt()
    out = {}
    y = T.tensor([0, 1, 2, 0, 1])
    for it in range(3):
        h = lin(x)
        msg = h[src] * norm.unsqueeze(1)
        agg = T.zeros(N, 3).index_add_(0, dst, msg) + h / deg.unsqueeze(1)
        loss = F.cross_entropy(agg, y)
        opt.zero_grad(); loss.backward(); opt.step()
        out[f"loss{it}"] = loss.item()
    mx = T.zeros(N, 3).scatter_reduce(0, dst.unsqueeze(1).expand(-1, 3), h[src], reduce="amax", include_self=False)
    mean = T.zeros(N, 3).scatter_reduce(0, dst.unsqueeze(1).expand(-1, 3), h[src], reduce="mean", include_self=False)
    out["mx"] = mx; out["mean"] = mean; out["deg"] = deg
    return out


@prog
def gat_softmax(T, nn, F):
    dst = T.tensor([1, 1, 1, 0, 0, 2])
    e = T.tensor(arr(26, 6))
    emax = T.full((3,), float("-inf")).scatter_reduce(0, dst, e, reduce="amax")
    ex = (e - emax[dst]).exp()
    den = T.zeros(3).scatter_add(0, dst, ex)
    alpha = ex / den[dst]
    return {"alpha": alpha, "emax": emax}


@prog
def embbag_rec(T, nn, F):
    bag = nn.EmbeddingBag(20, 4, mode="sum")
    init(bag, T)
    inp = T.tensor([1, 2, 4, 5, 4, 3, 2, 9]); offs = T.tensor([0, 4])
    w = T.tensor(arr(27, 8))
    o1 = bag(inp, offs, per_sample_weights=w)
    mean = F.embedding_bag(inp, bag.weight, offs, mode="mean")
    mx = F.embedding_bag(inp.view(2, 4), bag.weight, mode="max")
    user = init(nn.Embedding(10, 4), T, seed=3)
    u = user(T.tensor([3, 7]))
    score = (u * o1).sum(-1)
    neg = T.multinomial(T.ones(20), 6, replacement=False)
    loss = -F.logsigmoid(score).mean()
    loss.backward()
    return {"o1": o1, "mean": mean, "mx": mx, "loss": loss.item(), "g": bag.weight.grad,
            "neg_ok": float(neg.unique().numel() == 6)}


@prog
def contrastive(T, nn, F):
    enc = init(nn.Linear(6, 4), T)
    x1 = T.tensor(arr(28, 5, 6)); x2 = x1 + 0.1 * T.tensor(arr(29, 5, 6))
    z1 = F.normalize(enc(x1), dim=1); z2 = F.normalize(enc(x2), p=2, dim=-1)
    logits = z1 @ z2.T / 0.07
    labels = T.arange(5)
    loss = (F.cross_entropy(logits, labels, label_smoothing=0.1) + F.cross_entropy(logits.T, labels)) / 2
    loss.backward()
    z = T.cat([z1, z2])
    sim = F.cosine_similarity(z.unsqueeze(1), z.unsqueeze(0), dim=-1)
    sim = sim.masked_fill(T.eye(10, dtype=T.bool), -9e15)
    return {"loss": loss.item(), "g": enc.weight.grad, "sim": sim, "pd": F.pairwise_distance(z1, z2)}


@prog
def distill(T, nn, F):
    s = init(nn.Linear(4, 5), T); t = init(nn.Linear(4, 5), T, seed=9)
    x = T.tensor(arr(30, 6, 4)); y = T.tensor([0, 1, 2, 3, 4, 0])
    Tm = 4.0
    with T.no_grad():
        tl = t(x)
    sl = s(x)
    kd = F.kl_div(F.log_softmax(sl / Tm, dim=1), F.softmax(tl / Tm, dim=1), reduction="batchmean") * Tm * Tm
    kd2 = F.kl_div(F.log_softmax(sl / Tm, dim=1), F.log_softmax(tl / Tm, dim=1), reduction="batchmean", log_target=True)
    kd3 = nn.KLDivLoss(reduction="sum", log_target=True)(F.log_softmax(sl, -1), F.log_softmax(tl, -1))
    loss = 0.7 * kd + 0.3 * F.cross_entropy(sl, y)
    loss.backward()
    return {"kd": kd.item(), "kd2": kd2.item(), "kd3": kd3.item(), "g": s.weight.grad}


@prog
def ddpm(T, nn, F):
    steps = 50
    betas = T.linspace(1e-4, 0.02, steps)
    alphas = 1.0 - betas
    ac = T.cumprod(alphas, dim=0)
    acp = F.pad(ac[:-1], (1, 0), value=1.0)
    post_var = betas * (1.0 - acp) / (1.0 - ac)
    def temb(t, dim=8):
        half = dim // 2
        f = T.exp(-math.log(10000) * T.arange(half, dtype=T.float32) / half)
        a = t[:, None].float() * f[None]
        return T.cat([a.sin(), a.cos()], dim=-1)
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv2d(1, 8, 3, padding=1)
            self.gn = nn.GroupNorm(4, 8)
            self.t = nn.Sequential(nn.Linear(8, 8), nn.SiLU())
            self.c2 = nn.Conv2d(8, 1, 3, padding=1)
        def forward(self, x, t):
            h = F.silu(self.gn(self.c1(x)))
            h = h + self.t(temb(t))[:, :, None, None]
            return self.c2(h)
    net = init(Net(), T, scale=0.2)
    opt = T.optim.AdamW(net.parameters(), lr=1e-3)
    x0 = T.tensor(arr(31, 3, 1, 6, 6))
    noise = T.tensor(arr(32, 3, 1, 6, 6))
    t = T.tensor([3, 20, 49])
    out = {}
    for it in range(3):
        a = ac.gather(0, t).view(-1, 1, 1, 1)
        xt = a.sqrt() * x0 + (1 - a).sqrt() * noise
        loss = F.mse_loss(net(xt, t), noise)
        opt.zero_grad(); loss.backward(); opt.step()
        out[f"loss{it}"] = loss.item()
    out["post_var"] = post_var; out["temb"] = temb(t)
    return out


@prog
def nerf(T, nn, F):
    x = T.tensor(arr(33, 5, 3))
    freqs = 2.0 ** T.arange(4)
    enc = T.cat([x] + [fn(x * f) for f in freqs for fn in (T.sin, T.cos)], dim=-1)
    sigma = T.relu(T.tensor(arr(34, 5, 16)))
    deltas = T.full((5, 16), 0.1)
    alpha = 1 - T.exp(-sigma * deltas)
    trans = T.cumprod(T.cat([T.ones(5, 1), 1 - alpha + 1e-10], -1), -1)[:, :-1]
    w = alpha * trans
    bins = T.linspace(0, 1, 17).expand(5, 17).contiguous()
    pdf = (w + 1e-5) / (w + 1e-5).sum(-1, keepdim=True)
    cdf = T.cat([T.zeros(5, 1), T.cumsum(pdf, -1)], -1)
    u = T.linspace(0, 1, 8).expand(5, 8).contiguous()
    inds = T.searchsorted(cdf, u, right=True)
    below = (inds - 1).clamp(min=0); above = inds.clamp(max=16)
    cb = T.gather(cdf, 1, below); ca = T.gather(cdf, 1, above)
    bb = T.gather(bins, 1, below); ba = T.gather(bins, 1, above)
    denom = T.where(ca - cb < 1e-5, T.ones_like(ca), ca - cb)
    samples = bb + (u - cb) / denom * (ba - bb)
    return {"enc": enc, "w": w, "inds": inds, "samples": samples, "bucket": T.bucketize(u[0], bins[0])}


@prog
def timeseries(T, nn, F):
    series = T.sin(T.linspace(0, 12, 60)) + 0.1 * T.tensor(arr(35, 60))
    win = series.unfold(0, 10, 2)
    X, y = win[:, :-1], win[:, -1]
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv1d(1, 4, 3, padding=1)
            self.lstm = nn.LSTM(4, 6, batch_first=True)
            self.head = nn.Linear(6, 1)
        def forward(self, x):
            h = F.relu(self.conv(x.unsqueeze(1))).transpose(1, 2)
            o, (hn, cn) = self.lstm(h)
            return self.head(o[:, -1]).squeeze(-1)
    m = init(M(), T)
    opt = T.optim.Adam(m.parameters(), lr=1e-2)
    out = {"win": win}
    for it in range(3):
        loss = F.l1_loss(m(X), y)
        opt.zero_grad(); loss.backward(); opt.step()
        out[f"loss{it}"] = loss.item()
    return out


@prog
def mdn(T, nn, F):
    K = 3
    net = init(nn.Linear(2, 3 * K), T)
    x = T.tensor(arr(36, 7, 2)); y = T.tensor(arr(37, 7, 1))
    opt = T.optim.Adam(net.parameters(), lr=1e-2)
    out = {}
    for it in range(3):
        pi_logit, mu, log_s = net(x).chunk(3, dim=-1)
        log_pi = F.log_softmax(pi_logit, -1)
        lp = -0.5 * ((y - mu) / log_s.exp()) ** 2 - log_s - 0.5 * math.log(2 * math.pi)
        nll = -T.logsumexp(log_pi + lp, dim=-1).mean()
        opt.zero_grad(); nll.backward(); opt.step()
        out[f"nll{it}"] = nll.item()
    D = T.distributions
    mix = D.MixtureSameFamily(D.Categorical(logits=pi_logit), D.Normal(mu, log_s.exp()))
    out["mixlp"] = mix.log_prob(y.squeeze(-1))
    return out


@prog
def numerics(T, nn, F):
    x = T.tensor(arr(38, 4, 7))
    y = x + 1e-7
    z = T.tensor([1.0, float("nan"), float("inf"), -float("inf"), 2.0])
    out = {
        "allclose": float(T.allclose(x, y)), "isclose": T.isclose(x, y, rtol=0, atol=1e-8),
        "nan_to_num": T.nan_to_num(z), "n2n2": T.nan_to_num(z, nan=0.0, posinf=1e3, neginf=-1e3),
        "topk_v": x.topk(3, dim=1).values, "topk_i": x.topk(3, dim=1, largest=False).indices,
        "kth": x.kthvalue(2, dim=1)[0], "med": x.median(), "medd": x.median(dim=0).values,
        "q": T.quantile(x, T.tensor([0.1, 0.5, 0.9]), dim=1), "q2": x.flatten().quantile(0.3, interpolation="nearest"),
        "nanq": T.nanquantile(z, 0.5), "histc": T.histc(x, bins=5, min=-2, max=2),
        "std0": x.std(unbiased=False), "std1": x.std(dim=1, correction=0), "var": x.var(0, unbiased=True),
        "varc2": T.var(x, dim=1, correction=2), "svm": T.std_mean(x, dim=0)[0], "vm": T.var_mean(x)[1],
        "nanmean": T.nanmean(z[:2]), "nansum": z.nansum(), "isfinite": T.isfinite(z), "isinf": z.isinf(),
        "mode": T.tensor([1, 2, 2, 3, 3, 3]).mode()[0],
    }
    c = x.clone(); c.clamp_(min=-0.5, max=0.5); out["clamp_"] = c
    c2 = x.clone(); c2.clamp_(max=T.zeros(7)); out["clampt"] = c2
    out["cummax"] = x.cummax(dim=1)[0]; out["cmi"] = x.cummin(1).indices
    out["aminmax"] = T.aminmax(x)[0]; out["hist"] = T.histogram(x.flatten(), bins=4)[0]
    out["diff"] = T.diff(x, dim=1); out["msort"] = T.msort(x)
    return out


@prog
def numerics2(T, nn, F):
    x = T.tensor(arr(39, 3, 5))
    return {"logaddexp": T.logaddexp(x[0], x[1]), "signbit": T.signbit(x), "clip": x.clip(-1, 1),
            "where": T.where(x > 0, x, T.zeros_like(x)), "count": T.count_nonzero(x > 0, dim=1),
            "any": (x > 2).any(dim=1), "all": (x > -3).all(), "eq": float(T.equal(x, x.clone())),
            "sgn": x.sgn(), "trunc": (x * 3).trunc(), "rem": T.remainder(x * 5, 2),
            "cumsum": x.cumsum(dim=-1), "argsort": x.argsort(dim=1, descending=True),
            "uniq": T.unique(T.tensor([3, 1, 2, 3, 1]), return_counts=True)[1],
            "ucons": T.unique_consecutive(T.tensor([1, 1, 2, 2, 3, 1]))}


@prog
def mlp_gaussian_nll(T, nn, F):
    net = init(nn.Linear(3, 2), T)
    x = T.tensor(arr(40, 8, 3)); y = T.tensor(arr(41, 8))
    out = net(x); mean, var = out[:, 0], F.softplus(out[:, 1]) + 1e-3
    l = F.gaussian_nll_loss(mean, y, var)
    D = T.distributions
    l2 = -D.Normal(mean, var.sqrt()).log_prob(y).mean()
    l3 = -D.Independent(D.Normal(out, T.ones_like(out)), 1).log_prob(T.stack([y, y], 1)).mean()
    l.backward()
    return {"l": l.item(), "l2": l2.item(), "l3": l3.item(), "g": net.weight.grad}


@prog
def vae(T, nn, F):
    enc = init(nn.Linear(6, 4), T); dec = init(nn.Linear(2, 6), T, seed=2)
    x = T.sigmoid(T.tensor(arr(42, 5, 6)))
    eps = T.tensor(arr(43, 5, 2))
    opt = T.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-2)
    out = {}
    for it in range(3):
        mu, logvar = enc(x).chunk(2, dim=1)
        z = mu + eps * T.exp(0.5 * logvar)
        rec = F.binary_cross_entropy(T.sigmoid(dec(z)), x, reduction="sum")
        kld = -0.5 * T.sum(1 + logvar - mu.pow(2) - logvar.exp())
        loss = rec + kld
        opt.zero_grad(); loss.backward(); opt.step()
        out[f"loss{it}"] = loss.item()
    D = T.distributions
    q = D.Normal(mu, (0.5 * logvar).exp()); p = D.Normal(T.zeros_like(mu), T.ones_like(mu))
    out["kl"] = D.kl_divergence(q, p).sum()
    return out


@prog
def dist_zoo(T, nn, F):
    D = T.distributions
    v = T.tensor([0.2, 0.7, 1.5])
    out = {
        "bern": D.Bernoulli(probs=T.tensor([0.3, 0.6, 0.9])).log_prob(T.tensor([1.0, 0.0, 1.0])),
        "bern_ent": D.Bernoulli(logits=v).entropy(),
        "beta": D.Beta(T.tensor([2.0]), T.tensor([3.0])).log_prob(T.tensor([0.4])),
        "gamma": D.Gamma(T.tensor(2.0), T.tensor(1.5)).log_prob(v),
        "lap": D.Laplace(0.0, 1.0).log_prob(v), "mvn": D.MultivariateNormal(T.zeros(3), T.eye(3) * 2).log_prob(v),
        "unif": D.Uniform(0.0, 2.0).log_prob(v), "cat_ent": D.Categorical(probs=T.tensor([0.1, 0.2, 0.7])).entropy(),
        "oh": D.OneHotCategorical(probs=T.tensor([0.1, 0.2, 0.7])).log_prob(T.tensor([0.0, 0.0, 1.0])),
        "pois": D.Poisson(T.tensor(3.0)).log_prob(T.tensor([0.0, 2.0, 5.0])),
        "dir": D.Dirichlet(T.tensor([1.0, 2.0, 3.0])).log_prob(T.tensor([0.2, 0.3, 0.5])),
        "mean": D.Gamma(2.0, 4.0).mean,
        "tanh": D.TransformedDistribution(D.Normal(0.0, 1.0), [D.transforms.TanhTransform()]).log_prob(T.tensor(0.3)),
        "lognorm": D.LogNormal(0.0, 1.0).log_prob(v), "bin": D.Binomial(5, probs=T.tensor(0.3)).log_prob(T.tensor(2.0)),
    }
    return out


@prog
def qlearning_tabular(T, nn, F):
    Q = T.zeros(5, 2)
    trans = [(0, 1, 0.0, 1), (1, 1, 0.0, 2), (2, 0, 1.0, 3), (3, 1, 0.5, 4), (4, 0, 2.0, 0)] * 4
    for s, a, r, s2 in trans:
        Q[s, a] += 0.5 * (r + 0.9 * Q[s2].max() - Q[s, a])
    return {"Q": Q, "pol": Q.argmax(1)}


@prog
def heat_equation(T, nn, F):
    u = T.zeros(1, 1, 32); u[0, 0, 12:20] = 1.0
    k = T.tensor([[[1.0, -2.0, 1.0]]])
    for _ in range(30):
        u = u + 0.2 * F.conv1d(F.pad(u, (1, 1), mode="replicate"), k)
    g = T.zeros(16, 16); g[6:10, 6:10] = 1
    lap = T.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]]).view(1, 1, 3, 3)
    for _ in range(10):
        g = g + 0.1 * F.conv2d(F.pad(g[None, None], (1, 1, 1, 1), mode="circular"), lap)[0, 0]
    return {"u": u, "g": g, "mass": u.sum()}


@prog
def polyfit_adam(T, nn, F):
    x = T.linspace(-1, 1, 30); y = 0.5 * x ** 3 - x + 0.2
    coef = T.zeros(4, requires_grad=True)
    opt = T.optim.Adam([coef], lr=0.1)
    sched = T.optim.lr_scheduler.ExponentialLR(opt, 0.9)
    V = T.vander(x, N=4, increasing=True)
    for _ in range(20):
        loss = ((V @ coef - y) ** 2).mean()
        opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    ls = T.linalg.lstsq(V, y.unsqueeze(1)).solution.squeeze(1)
    return {"coef": coef, "ls": ls, "loss": loss.item(), "pv": T.linalg.pinv(V) @ y}


@prog
def hessian_newton(T, nn, F):
    AF = T.autograd.functional
    A = T.tensor([[3.0, 0.5], [0.5, 1.0]])
    f = lambda x: 0.5 * x @ A @ x - x.sum() + (x ** 4).sum() * 0.1
    x = T.tensor([1.0, -1.0])
    for _ in range(3):
        g = AF.jacobian(f, x); H = AF.hessian(f, x)
        x = x - T.linalg.solve(H, g)
    _, vjp = AF.vjp(lambda z: z ** 2, x, T.ones(2))
    _, hvp = AF.hvp(f, x, T.tensor([1.0, 0.0]))
    return {"x": x, "vjp": vjp, "hvp": hvp}


@prog
def triplet_metric(T, nn, F):
    emb = init(nn.Linear(5, 3), T)
    a, p, n = (T.tensor(arr(s, 4, 5)) for s in (44, 45, 46))
    l = F.triplet_margin_loss(emb(a), emb(p), emb(n), margin=0.5)
    l2 = nn.CosineEmbeddingLoss(margin=0.1)(emb(a), emb(n), T.tensor([1, -1, 1, -1]))
    l3 = F.margin_ranking_loss(emb(a)[:, 0], emb(n)[:, 0], T.tensor([1.0, -1.0, 1.0, 1.0]), margin=0.2)
    l4 = F.hinge_embedding_loss(T.cdist(emb(a), emb(n)).flatten(), T.tensor([1.0, -1.0] * 8))
    (l + l2 + l3 + l4).backward()
    return {"l": l.item(), "l2": l2.item(), "l3": l3.item(), "l4": l4.item(), "g": emb.weight.grad}


@prog
def focal_multilabel(T, nn, F):
    logits = T.tensor(arr(47, 6, 4), ) .requires_grad_()
    tg = T.tensor((arr(48, 6, 4) > 0).astype(np.float32))
    p = T.sigmoid(logits)
    ce = F.binary_cross_entropy_with_logits(logits, tg, reduction="none", pos_weight=T.tensor([1.0, 2.0, 0.5, 1.0]))
    pt = p * tg + (1 - p) * (1 - tg)
    focal = (ce * (1 - pt) ** 2).mean()
    ml = F.multilabel_soft_margin_loss(logits, tg)
    mm = F.multi_margin_loss(logits, T.tensor([0, 1, 2, 3, 0, 1]))
    (focal + ml + mm).backward()
    return {"focal": focal.item(), "ml": ml.item(), "mm": mm.item(), "g": logits.grad}


@prog
def trpo_cg(T, nn, F):
    D = T.distributions
    U = nn.utils
    pol = init(nn.Linear(3, 2), T)
    x = T.tensor(arr(50, 6, 3)); a = T.tensor([0, 1, 1, 0, 1, 0]); adv = T.tensor(arr(51, 6))
    dist = D.Categorical(logits=pol(x))
    surr = (dist.log_prob(a) * adv).mean()
    g = T.autograd.grad(surr, list(pol.parameters()))
    g = T.cat([t.reshape(-1) for t in g])
    def fvp(v):
        d = D.Categorical(logits=pol(x))
        kl = D.kl_divergence(D.Categorical(logits=pol(x).detach()), d).mean()
        gk = T.autograd.grad(kl, list(pol.parameters()), create_graph=True)
        flat = T.cat([t.view(-1) for t in gk])
        hv = T.autograd.grad((flat * v).sum(), list(pol.parameters()))
        return T.cat([t.contiguous().view(-1) for t in hv]) + 0.1 * v
    xk = T.zeros_like(g); r = g.clone(); p = g.clone(); rr = r @ r
    for _ in range(5):
        Ap = fvp(p); al = rr / (p @ Ap)
        xk += al * p; r -= al * Ap
        nrr = r @ r; p = r + nrr / rr * p; rr = nrr
    vec = U.parameters_to_vector(pol.parameters())
    U.vector_to_parameters(vec + 0.01 * xk, pol.parameters())
    return {"step": xk, "w": pol.weight, "vec": vec}


@prog
def sac_tanh(T, nn, F):
    D = T.distributions
    net = init(nn.Linear(3, 4), T)
    x = T.tensor(arr(52, 5, 3)); eps = T.tensor(arr(53, 5, 2))
    mu, log_std = net(x).chunk(2, -1)
    log_std = T.clamp(log_std, -20, 2); std = log_std.exp()
    normal = D.Normal(mu, std)
    u = mu + std * eps
    act = T.tanh(u)
    lp = normal.log_prob(u) - T.log(1 - act.pow(2) + 1e-6)
    lp = lp.sum(1, keepdim=True)
    lp2 = (normal.log_prob(u) - 2 * (math.log(2) - u - F.softplus(-2 * u))).sum(-1)
    alpha = T.zeros(1, requires_grad=True)
    aloss = -(alpha * (lp + -2).detach()).mean()
    aloss.backward()
    q1 = init(nn.Linear(5, 1), T, seed=4); q2 = init(nn.Linear(5, 1), T, seed=6)
    sa = T.cat([x, act], 1)
    qmin = T.min(q1(sa), q2(sa))
    pl = (alpha.exp().detach() * lp - qmin).mean()
    pl.backward()
    with T.no_grad():
        for p1, p2 in zip(q1.parameters(), q2.parameters()):
            p2.data.mul_(0.995); p2.data.add_(0.005 * p1.data)
    return {"lp": lp, "lp2": lp2, "ag": alpha.grad, "pl": pl.item(), "g": net.weight.grad, "q2": q2.weight,
            "huber": F.huber_loss(qmin.squeeze(1), mu[:, 0], delta=0.5)}


@prog
def gnn_scatter_variants(T, nn, F):
    idx = T.tensor([0, 2, 0, 1, 2, 2])
    v = T.tensor(arr(54, 6, 3))
    base = T.tensor(arr(55, 3, 3))
    i2 = idx.unsqueeze(1).expand_as(v)
    out = {
        "prod": base.scatter_reduce(0, i2, v, "prod"),
        "amin_self": base.scatter_reduce(0, i2, v, "amin", include_self=True),
        "mean_self": base.scatter_reduce(0, i2, v, "mean"),
        "ir": base.clone().index_reduce_(0, idx, v, "amax", include_self=False),
        "scatter_mul": T.ones(3, 3).scatter(0, i2[:3], v[:3], reduce="multiply"),
        "scatter_val": T.zeros(3, 4).scatter_(1, T.tensor([[0], [2], [3]]), 1.5),
        "ic": T.zeros(3, 3).index_copy(0, T.tensor([2, 0]), v[:2]),
        "if": base.index_fill(1, T.tensor([0, 2]), -1.0),
    }
    deg = T.bincount(idx, minlength=4)
    out["deg"] = deg
    adj = T.zeros(3, 3); adj[idx[:3], idx[3:]] = 1.0
    out["adj"] = adj
    dinv = adj.sum(1).pow(-0.5); dinv[T.isinf(dinv)] = 0
    out["norm"] = dinv[:, None] * adj * dinv[None, :]
    return out


@prog
def rec_bpr(T, nn, F):
    U = init(nn.Embedding(6, 4), T); I = init(nn.Embedding(8, 4, padding_idx=0), T, seed=1)
    with T.no_grad():
        I.weight[0].zero_()
    opt = T.optim.Adagrad(list(U.parameters()) + list(I.parameters()), lr=0.1)
    u = T.tensor([0, 1, 2, 3]); pos = T.tensor([1, 2, 3, 0]); neg = T.tensor([4, 5, 6, 7])
    out = {}
    for it in range(3):
        pu = U(u)
        l = -F.logsigmoid((pu * I(pos)).sum(1) - (pu * I(neg)).sum(1)).mean() + 1e-3 * U.weight.norm(2).pow(2)
        opt.zero_grad(); l.backward(); opt.step()
        out[f"l{it}"] = l.item()
    bag = nn.EmbeddingBag(8, 4, mode="mean", include_last_offset=True, padding_idx=0)
    init(bag, T, seed=7)
    out["bag"] = bag(T.tensor([1, 0, 3, 4, 5, 0]), T.tensor([0, 2, 3, 6]))
    scores = U.weight @ I.weight.T
    out["top"] = scores.topk(3, dim=1).indices
    out["rank"] = (scores > scores.gather(1, T.tensor([[1]] * 6))).sum(1)
    return out


@prog
def special_fns(T, nn, F):
    x = T.tensor([0.3, 1.2, 2.5, 4.0])
    S = T.special
    return {"lgamma": T.lgamma(x), "digamma": T.digamma(x), "poly": T.polygamma(1, x), "mvlg": T.mvlgamma(x + 2, p=2),
            "xlogy": T.xlogy(x, x), "ent": S.entr(x / 5), "logit": T.logit(x / 5), "erfcx": S.erfcx(x),
            "ndtr": S.ndtr(x), "ndtri": S.ndtri(x / 5), "log_ndtr": S.log_ndtr(-x), "sinc": T.sinc(x),
            "xlog1py": S.xlog1py(x, x), "expit": S.expit(x), "i0": T.i0(x), "zeta": S.zeta(x + 1, T.ones(4)),
            "gammaln": S.gammaln(x), "lse": S.logsumexp(x, 0), "softmax": S.softmax(x, 0),
            "gammainc": T.special.gammainc(x, x)}


@prog
def tensor_algebra(T, nn, F):
    a = T.tensor(arr(56, 3, 4)); b = T.tensor(arr(57, 4, 2))
    return {"tensordot": T.tensordot(a, b, dims=([1], [0])), "kron": T.kron(a[:2, :2], b[:2]),
            "block": T.block_diag(a[:2, :2], b[:1]), "outer": T.outer(a[0], b[:, 0]),
            "cart": T.cartesian_prod(T.tensor([1, 2]), T.tensor([3, 4, 5])), "comb": T.combinations(T.arange(4), 2),
            "tri": T.tril_indices(3, 3), "mg": T.stack(T.meshgrid(T.arange(3), T.arange(2), indexing="xy")),
            "cross": T.linalg.cross(a[:, :3], b.T[:, :3].repeat(2, 1)[:3]), "mp": T.linalg.matrix_power(a[:, :3], 3),
            "qr": T.linalg.qr(a.T)[1].abs(), "evh": T.linalg.eigvalsh(a @ a.T), "ctr": T.cumulative_trapezoid(a, dim=1),
            "chain": T.linalg.multi_dot([a, b, b.T]), "trace": T.trace(a[:, :3]), "diag_embed": T.diag_embed(a[0]),
            "argwhere": T.argwhere(a > 1), "addmm": T.addmm(b[:3], a[:, :3], b[:3], beta=0.5, alpha=2.0),
            "baddbmm": T.baddbmm(T.zeros(2, 3, 2), a.unsqueeze(0).expand(2, 3, 4), b.unsqueeze(0).expand(2, 4, 2)),
            "cdist1": T.cdist(a, a, p=1), "hist2": T.histogramdd(a[:, :2], bins=[2, 2])[0],
            "hist3": T.histogramdd(a[:, :2], bins=3, range=[-2.0, 2.0, -1.0, 1.0], weight=a[:, 2])[0],
            "he": T.histogramdd(a[:, :2], bins=[2, 3])[1][1],
            "vecdot": T.linalg.vecdot(a, a),
            "lu_solve": T.linalg.solve_triangular(T.triu(a[:, :3]) + 3 * T.eye(3), b[:3], upper=True)}


@prog
def func_more(T, nn, F):
    func = T.func
    x = T.tensor(arr(58, 3)); y = T.tensor(arr(59, 3))
    f = lambda a, b: (a * b.sin()).sum()
    ga, gb = func.grad(f, argnums=(0, 1))(x, y)
    val, g2 = func.grad_and_value(f)(x, y)
    J = func.jacrev(lambda a, b: a * b, argnums=1)(x, y)
    out_vm = func.vmap(lambda a, b: a @ b, in_dims=(0, None))(T.tensor(arr(60, 4, 3)), y)
    vm2 = func.vmap(lambda a: a.sum(0), in_dims=1, out_dims=0)(T.tensor(arr(61, 2, 5)))
    _, jv = func.jvp(lambda a: a.exp(), (x,), (T.ones(3),))
    _, vjpf = func.vjp(lambda a: a.exp(), x)
    return {"ga": ga, "gb": gb, "val": val, "J": J, "vm": out_vm, "vm2": vm2, "jv": jv, "vjp": vjpf(T.ones(3))[0]}


@prog
def lbfgs_plain(T, nn, F):
    w = T.tensor([1.5, -0.5], requires_grad=True)
    opt = T.optim.LBFGS([w], lr=0.5, max_iter=5, history_size=3)
    def closure():
        opt.zero_grad()
        l = (1 - w[0]) ** 2 + 10 * (w[1] - w[0] ** 2) ** 2
        l.backward()
        return l
    ls = [opt.step(closure).item() for _ in range(3)]
    return {"ls": np.array(ls), "w": w, "n_iter": opt.state[opt._params[0]]["n_iter"]}


@prog
def onecycle_sched(T, nn, F):
    m = init(nn.Linear(2, 1), T)
    opt = T.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4)
    sch = T.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=10)
    x = T.tensor(arr(62, 8, 2)); y = T.tensor(arr(63, 8, 1))
    lrs = []
    for _ in range(10):
        l = F.mse_loss(m(x), y); opt.zero_grad(); l.backward(); opt.step(); sch.step()
        lrs.append(sch.get_last_lr()[0])
    return {"lrs": np.array(lrs), "w": m.weight, "mom": opt.param_groups[0]["momentum"]}


@prog
def stats_misc(T, nn, F):
    x = T.tensor(arr(64, 6, 5))
    return {"qk": T.quantile(x, 0.25, dim=0, keepdim=True),
            "qlin": T.quantile(x, T.tensor([0.2, 0.8]), interpolation="midpoint"),
            "qlow": x.quantile(0.6, dim=1, interpolation="lower"),
            "qhigh": x.quantile(0.6, dim=1, interpolation="higher"),
            "kth_k": x.kthvalue(3, 0, keepdim=True).values, "med_i": x.median(1).indices,
            "nanmed": T.nanmedian(T.tensor([1.0, float("nan"), 3.0, 2.0])),
            "std_t": x.std(dim=(0, 1)), "var_k": x.var(1, keepdim=True, unbiased=False),
            "cov_w": T.cov(x.T, correction=0, fweights=T.tensor([1, 2, 1, 1, 3, 1])),
            "hc": T.histc(x, bins=4), "zscore": (x - x.mean(0)) / x.std(0), "mad": (x - x.median()).abs().median(),
            "minmax_norm": (x - x.amin(1, keepdim=True)) / (x.amax(1, keepdim=True) - x.amin(1, keepdim=True)),
            "nanstd": T.tensor([1.0, 2.0, 4.0]).std(correction=1), "topk_s": x.flatten().topk(4, sorted=True).values,
            "mean_int": T.arange(10).float().mean(), "renorm": x.renorm(2, 0, 1.0), "round2": T.round(x, decimals=2)}


@prog
def dist_rl_more(T, nn, F):
    D = T.distributions
    logits = T.tensor(arr(70, 4, 3))
    c = D.Categorical(logits=logits)
    s = c.sample((5,))
    n = D.Normal(T.zeros(2), T.ones(2)).expand((3, 2))
    n2 = D.Categorical(logits=logits[0]).expand((2, 4))
    n3 = D.Independent(D.Normal(T.zeros(2), T.ones(2)), 1).expand([5])
    mvn = D.MultivariateNormal(T.zeros(2), scale_tril=T.tensor([[1.0, 0.0], [0.5, 2.0]]))
    ind = D.Independent(D.Normal(T.zeros(3, 2), T.ones(3, 2) * 2), 1)
    tr = D.TransformedDistribution(D.Normal(T.zeros(2), T.ones(2)),
                                   [D.transforms.TanhTransform(cache_size=1), D.transforms.AffineTransform(1.0, 2.0)])
    return {"shape": np.array(s.shape), "logits": c.logits, "lp_b": c.log_prob(T.tensor([[0], [2]])),
            "support": c.enumerate_support(), "nshape": np.array(n.batch_shape),
            "n2": n2.log_prob(T.tensor([[0, 1, 2, 0]] * 2)), "n3": n3.log_prob(T.ones(5, 2)),
            "n3s": np.array(n3.sample().shape), "nlp": n.log_prob(T.ones(3, 2)),
            "mvn_lp": mvn.log_prob(T.tensor([[0.5, -1.0], [1.0, 1.0]])),
            "mvn_ent": mvn.entropy(), "mvn_cov": mvn.covariance_matrix, "ind_ent": ind.entropy(),
            "ind_ev": np.array(ind.event_shape),
            "tr_lp": tr.log_prob(T.tensor([0.5, 1.5])), "var": D.Normal(1.0, 3.0).variance,
            "std": D.Beta(2.0, 3.0).variance,
            "mode": c.mode, "gs": F.gumbel_softmax(logits, tau=0.5, hard=True).sum(-1),
            "icdf": D.Normal(0.0, 1.0).icdf(T.tensor([0.1, 0.9])),
            "perplex": c.perplexity()}


@prog
def gmm_em(T, nn, F):
    rng = np.random.default_rng(71)
    X = T.tensor(np.concatenate([rng.standard_normal((15, 2)) - 2,
                                 rng.standard_normal((15, 2)) + 2]).astype(np.float32))
    K = 2
    mu = X[[0, 20]].clone(); var = T.ones(K, 2); pi = T.full((K,), 0.5)
    D = T.distributions
    for _ in range(5):
        lp = D.Normal(mu.unsqueeze(0), var.sqrt().unsqueeze(0)).log_prob(X.unsqueeze(1)).sum(-1) + pi.log()
        resp = (lp - T.logsumexp(lp, dim=1, keepdim=True)).exp()
        Nk = resp.sum(0)
        mu = (resp.T @ X) / Nk[:, None]
        var = (resp.T @ X ** 2) / Nk[:, None] - mu ** 2 + 1e-6
        pi = Nk / Nk.sum()
    ll = T.logsumexp(lp, 1).sum()
    cov = T.stack([T.diag(v) for v in var])
    lp2 = D.MultivariateNormal(mu, covariance_matrix=cov).log_prob(X[:3, None])
    return {"mu": mu, "var": var, "pi": pi, "ll": ll, "lp2": lp2}


@prog
def gaussian_process(T, nn, F):
    X = T.linspace(0, 5, 12).unsqueeze(1); y = T.sin(X).squeeze(1)
    log_ls = T.zeros(1, requires_grad=True); log_sf = T.zeros(1, requires_grad=True)
    opt = T.optim.Adam([log_ls, log_sf], lr=0.05)
    out = {}
    for it in range(3):
        K = log_sf.exp() * T.exp(-0.5 * T.cdist(X, X) ** 2 / log_ls.exp() ** 2) + 1e-2 * T.eye(12)
        L = T.linalg.cholesky(K)
        alpha = T.cholesky_solve(y.unsqueeze(1), L)
        nll = 0.5 * (y.unsqueeze(1) * alpha).sum() + T.log(T.diagonal(L)).sum() + 6 * math.log(2 * math.pi)
        opt.zero_grad(); nll.backward(); opt.step()
        out[f"nll{it}"] = nll.item()
    Xs = T.tensor([[1.5], [3.3]])
    Ks = log_sf.exp() * T.exp(-0.5 * T.cdist(Xs, X) ** 2 / log_ls.exp() ** 2)
    out["mean"] = (Ks @ alpha).squeeze(1)
    out["ci"] = T.cholesky_inverse(L)[0]
    out["st"] = T.linalg.solve_triangular(L, Ks.T, upper=False)[:, 0]
    return out


@prog
def realnvp(T, nn, F):
    D = T.distributions
    class Coupling(nn.Module):
        def __init__(self, mask):
            super().__init__()
            self.register_buffer("mask", mask)
            self.s = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))
            self.t = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 2))
        def forward(self, x):
            xm = x * self.mask
            s = self.s(xm) * (1 - self.mask); t = self.t(xm) * (1 - self.mask)
            return xm + (1 - self.mask) * (x * s.exp() + t), s.sum(1)
    flows = nn.ModuleList([Coupling(T.tensor([1.0, 0.0])), Coupling(T.tensor([0.0, 1.0]))])
    init(flows, T, scale=0.2)
    prior = D.MultivariateNormal(T.zeros(2), T.eye(2))
    opt = T.optim.Adam(flows.parameters(), lr=1e-2)
    x = T.tensor(arr(72, 16, 2))
    out = {}
    for it in range(3):
        z, ld = x, T.zeros(16)
        for f in flows:
            z, l = f(z); ld = ld + l
        loss = -(prior.log_prob(z) + ld).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        out[f"loss{it}"] = loss.item()
    return out


@prog
def sinkhorn(T, nn, F):
    a = T.full((5,), 1 / 5); b = T.full((4,), 1 / 4)
    C = T.cdist(T.tensor(arr(73, 5, 2)), T.tensor(arr(74, 4, 2))) ** 2
    eps = 0.1
    f = T.zeros(5); g = T.zeros(4)
    for _ in range(50):
        f = eps * a.log() - eps * T.logsumexp((g[None, :] - C) / eps, dim=1)
        g = eps * b.log() - eps * T.logsumexp((f[:, None] - C) / eps, dim=0)
    P = T.exp((f[:, None] + g[None, :] - C) / eps)
    return {"P": P, "cost": (P * C).sum()}


@prog
def wgan_gp(T, nn, F):
    Dn = init(nn.Sequential(nn.Linear(3, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1)), T)
    real = T.tensor(arr(75, 6, 3)); fake = T.tensor(arr(76, 6, 3))
    eps = T.tensor(np.linspace(0, 1, 6, dtype=np.float32)).view(-1, 1)
    xh = (eps * real + (1 - eps) * fake).requires_grad_(True)
    out = Dn(xh)
    g = T.autograd.grad(outputs=out, inputs=xh, grad_outputs=T.ones_like(out), create_graph=True, retain_graph=True,
                        only_inputs=True)[0]
    gp = ((g.norm(2, dim=1) - 1) ** 2).mean()
    loss = Dn(fake).mean() - Dn(real).mean() + 10 * gp
    loss.backward()
    u = T.autograd.grad(Dn(real).sum(), [xh, real.requires_grad_()], allow_unused=True)
    return {"gp": gp.item(), "loss": loss.item(), "g0": Dn[0].weight.grad, "unused": float(u[0] is None)}


@prog
def skipgram_sparse(T, nn, F):
    E = nn.Embedding(10, 4, sparse=True); C = nn.Embedding(10, 4, sparse=True)
    init(E, T); init(C, T, seed=1)
    opt = T.optim.SparseAdam(list(E.parameters()) + list(C.parameters()), lr=0.05)
    c = T.tensor([1, 2, 3]); ctx = T.tensor([2, 3, 4]); neg = T.tensor([[5, 6], [7, 8], [9, 0]])
    out = {}
    for it in range(3):
        e = E(c)
        pos = F.logsigmoid((e * C(ctx)).sum(1))
        ng = F.logsigmoid(-T.bmm(C(neg), e.unsqueeze(2)).squeeze(2)).sum(1)
        loss = -(pos + ng).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        out[f"loss{it}"] = loss.item()
    out["E"] = E.weight
    return out


@prog
def knn_nb(T, nn, F):
    Xtr = T.tensor(arr(77, 20, 3)); ytr = T.tensor(np.arange(20) % 3); Xte = T.tensor(arr(78, 5, 3))
    d = T.cdist(Xte, Xtr)
    nd, ni = d.topk(5, largest=False)
    votes = ytr[ni]
    pred = T.mode(votes, dim=1).values
    oh = F.one_hot(votes, 3).sum(1)
    mu = T.stack([Xtr[ytr == k].mean(0) for k in range(3)])
    sd = T.stack([Xtr[ytr == k].std(0) for k in range(3)])
    ll = T.distributions.Normal(mu, sd).log_prob(Xte[:, None]).sum(-1) + T.log(T.bincount(ytr).float() / 20)
    acc = (ll.argmax(1) == pred).float().mean()
    ip = T.zeros(3).index_put_((ytr,), T.ones(20), accumulate=True)
    return {"nd": nd, "pred": pred, "oh": oh, "ll": ll, "acc": acc, "ip": ip}


@prog
def svm_ridge(T, nn, F):
    X = T.tensor(arr(79, 30, 4)); y = T.sign(X[:, 0] - 0.5 * X[:, 1])
    w = T.zeros(4, requires_grad=True); b = T.zeros(1, requires_grad=True)
    opt = T.optim.SGD([w, b], lr=0.1)
    for _ in range(10):
        l = T.clamp(1 - y * (X @ w + b), min=0).mean() + 0.01 * w.dot(w)
        opt.zero_grad(); l.backward(); opt.step()
    lam = 0.5
    wr = T.linalg.solve(X.T @ X + lam * T.eye(4), X.T @ y)
    wc = T.cholesky_solve((X.T @ y).unsqueeze(1), T.linalg.cholesky(X.T @ X + lam * T.eye(4))).squeeze(1)
    return {"w": w, "b": b, "l": l.item(), "wr": wr, "wc": wc, "acc": (T.sign(X @ w + b) == y).float().mean()}


@prog
def patches_ts(T, nn, F):
    img = T.tensor(arr(80, 2, 3, 8, 8))
    p = F.unfold(img, kernel_size=4, stride=4)
    back = F.fold(p, output_size=(8, 8), kernel_size=4, stride=4)
    p2 = img.unfold(2, 4, 4).unfold(3, 4, 4).reshape(2, 3, -1, 16)
    x = T.tensor(arr(81, 3, 20))
    ma = F.avg_pool1d(x.unsqueeze(1), 5, stride=1).squeeze(1)
    w = x.unfold(1, 5, 1)
    ema = [x[:, 0]]
    for t in range(1, 20):
        ema.append(0.9 * ema[-1] + 0.1 * x[:, t])
    gru = init(nn.GRU(1, 4, batch_first=True, bidirectional=True, num_layers=2), T)
    o, h = gru(x.unsqueeze(-1))
    seqs = [T.tensor(arr(82 + i, 3 + i, 2)) for i in range(3)]
    pad = nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1.0)
    return {"p": p, "eq": float((back == img).all()), "p2": p2, "ma": ma, "wmean": w.mean(-1), "ema": T.stack(ema, 1),
            "o": o[:, -1], "h": h, "pad": pad, "roll": T.roll(x, 2, 1), "diff": x.diff(n=2)}


@prog
def printing(T, nn, F):
    out = {}
    out["s1"] = str(T.tensor([1.0, 2.5, -3.25]))
    out["s2"] = str(T.tensor([[1, 2], [3, 4]]))
    out["s3"] = str(T.tensor(0.5))
    out["s4"] = repr(T.tensor([1e-5, 1e5]))
    out["s5"] = str(T.tensor([True, False]))
    out["s6"] = f"{T.tensor(3.14159).item():.3f}"
    out["s9"] = str(T.tensor([1.0, 2.0], requires_grad=True) * 2).replace("MulBackward0", "X")
    out["eps"] = T.finfo(T.float32).eps; out["tiny"] = T.finfo(T.float16).max; out["imax"] = T.iinfo(T.int32).max
    T.testing.assert_close(T.tensor([1.0, 2.0]), T.tensor([1.0, 2.0 + 1e-7]))
    out["s10"] = str(T.tensor([float("nan"), float("inf"), 1.0]))
    out["s11"] = str(T.arange(3).float().mean())
    out["s12"] = str(T.tensor([123456.0, 0.001]))
    return {k: (np.array(v) if not isinstance(v, str) else v) for k, v in out.items()}


@prog
def a2c_gru_policy(T, nn, F):
    D = T.distributions
    class P(nn.Module):
        def __init__(self):
            super().__init__()
            self.cell = nn.GRUCell(3, 6)
            self.pi = nn.Linear(6, 2); self.v = nn.Linear(6, 1)
        def forward(self, x, h):
            h = self.cell(x, h)
            return self.pi(h), self.v(h), h
    m = init(P(), T)
    opt = T.optim.Adam(m.parameters(), lr=1e-2)
    xs = T.tensor(arr(90, 5, 4, 3)); acts = T.tensor(np.arange(20).reshape(5, 4) % 2)
    rews = T.tensor(arr(91, 5, 4)); masks = T.ones(5, 4); masks[2, 1] = 0
    out = {}
    for it in range(2):
        h = T.zeros(4, 6); lps, vals, ents = [], [], []
        for t in range(5):
            logit, v, h = m(xs[t], h)
            h = h * masks[t].unsqueeze(1)
            d = D.Categorical(logits=logit)
            lps.append(d.log_prob(acts[t])); vals.append(v.squeeze(1)); ents.append(d.entropy())
        lps, vals = T.stack(lps), T.stack(vals)
        ret = T.zeros_like(rews); R = T.zeros(4)
        for t in reversed(range(5)):
            R = rews[t] + 0.9 * R * masks[t]; ret[t] = R
        adv = ret - vals
        loss = -(lps * adv.detach()).mean() + 0.5 * adv.pow(2).mean() - 0.01 * T.stack(ents).mean()
        opt.zero_grad(); loss.backward(); nn.utils.clip_grad_value_(m.parameters(), 0.1); opt.step()
        out[f"loss{it}"] = loss.item()
    return out


@prog
def ppo_minibatch(T, nn, F):
    D = T.distributions
    pol = init(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2)), T)
    log_std = nn.Parameter(T.full((2,), -0.5))
    opt = T.optim.Adam(list(pol.parameters()) + [log_std], lr=1e-3)
    obs = T.tensor(arr(92, 16, 4))
    act = T.tensor(arr(93, 16, 2))
    adv = T.tensor(arr(94, 16))
    ret = T.tensor(arr(95, 16))
    with T.no_grad():
        old = D.Normal(pol(obs), log_std.exp()).log_prob(act).sum(-1)
    perm = T.tensor(np.random.default_rng(0).permutation(16))
    out = []
    for start in range(0, 16, 8):
        mb = perm[start:start + 8]
        d = D.Normal(pol(obs[mb]), log_std.exp())
        lp = d.log_prob(act[mb]).sum(-1)
        ratio = T.exp(lp - old[mb])
        a = (adv[mb] - adv[mb].mean()) / (adv[mb].std() + 1e-8)
        l = -T.min(ratio * a, ratio.clamp(1 - 0.2, 1 + 0.2) * a).mean() - 0.01 * d.entropy().sum(-1).mean()
        clipfrac = ((ratio - 1).abs() > 0.2).float().mean()
        opt.zero_grad(); l.backward(); nn.utils.clip_grad_norm_(pol.parameters(), 0.5); opt.step()
        out.append(l.item())
    ev = 1 - T.var(ret - pol(obs)[:, 0]) / T.var(ret)
    return {"l": np.array(out), "ev": ev, "cf": clipfrac, "ls": log_std}


@prog
def burgers_pinn_lbfgs(T, nn, F):
    net = init(nn.Sequential(nn.Linear(2, 10), nn.Tanh(), nn.Linear(10, 1)), T, scale=0.5)
    xt = T.tensor(arr(96, 12, 2)).requires_grad_(True)
    opt = T.optim.LBFGS(net.parameters(), lr=0.5, max_iter=4)
    def closure():
        opt.zero_grad()
        u = net(xt)
        g = T.autograd.grad(u.sum(), xt, create_graph=True)[0]
        ux, ut = g[:, 0:1], g[:, 1:2]
        uxx = T.autograd.grad(ux.sum(), xt, create_graph=True)[0][:, 0:1]
        loss = ((ut + u * ux - 0.01 / math.pi * uxx) ** 2).mean() + ((net(T.tensor([[0.0, 0.0]])) - 1) ** 2).sum()
        loss.backward()
        return loss
    l = [opt.step(closure).item() for _ in range(2)]
    return {"l": np.array(l), "w": net[0].weight}


@prog
def vmap_ensemble(T, nn, F):
    func = T.func
    models = [init(nn.Linear(3, 2), T, seed=s) for s in range(4)]
    params, bufs = func.stack_module_state(models)
    base = models[0]
    x = T.tensor(arr(97, 5, 3))
    def f(p, b, x):
        return func.functional_call(base, (p, b), (x,))
    y = func.vmap(f, in_dims=(0, 0, None))(params, bufs, x)
    ys = func.vmap(f)(params, bufs, x.unsqueeze(0).expand(4, 5, 3))
    # per-sample gradients
    def loss(p, xi, yi):
        return F.mse_loss(func.functional_call(base, p, (xi.unsqueeze(0),)), yi.unsqueeze(0))
    p0 = {k: v.detach() for k, v in base.named_parameters()}
    psg = func.vmap(func.grad(loss), in_dims=(None, 0, 0))(p0, x, T.tensor(arr(98, 5, 2)))
    return {"y": y, "ys": ys, "psg": psg["weight"], "psb": psg["bias"]}


@prog
def ode_adaptive(T, nn, F):
    def f(t, y): return T.stack([y[1], -T.sin(y[0]) - 0.1 * y[1]])
    y = T.tensor([1.0, 0.0]); t = 0.0; h = 0.1; n_acc = 0
    while t < 2.0 and n_acc < 100:
        k1 = f(t, y); k2 = f(t + h / 2, y + h / 2 * k1)
        y_hi = y + h * k2; y_lo = y + h * k1
        err = (y_hi - y_lo).abs().max().item()
        if err < 1e-3:
            y = y_hi; t += h; n_acc += 1
        h = h * min(2.0, max(0.2, 0.9 * (1e-3 / max(err, 1e-12)) ** 0.5))
    return {"y": y, "n": np.array(n_acc), "t": np.array(t)}


@prog
def gnn_graphsage(T, nn, F):
    src = T.tensor([0, 0, 1, 2, 2, 3, 4, 4]); dst = T.tensor([1, 2, 2, 0, 3, 4, 0, 1])
    x = T.tensor(arr(99, 5, 3))
    lin_s = init(nn.Linear(3, 4), T); lin_n = init(nn.Linear(3, 4, bias=False), T, seed=2)
    opt = T.optim.Adam(list(lin_s.parameters()) + list(lin_n.parameters()), lr=0.01)
    y = T.tensor([0, 1, 0, 1, 1]).float()
    out = {}
    for it in range(3):
        s = T.zeros(5, 3).index_add(0, dst, x[src])
        cnt = T.zeros(5).index_add_(0, dst, T.ones(8)).clamp(min=1)
        h = F.relu(lin_s(x) + lin_n(s / cnt[:, None]))
        h = F.normalize(h, dim=-1)
        pool = T.zeros(2, 4).index_reduce(0, T.tensor([0, 0, 1, 1, 1]), h, "mean", include_self=False)
        logit = h.sum(1)
        loss = F.binary_cross_entropy_with_logits(logit, y)
        opt.zero_grad(); loss.backward(); opt.step()
        out[f"loss{it}"] = loss.item()
    out["pool"] = pool
    out["edge_score"] = (h[src] * h[dst]).sum(-1)
    out["dropedge"] = T.unique(T.stack([src, dst]), dim=1)
    return out


@prog
def diffusion_sample_loop(T, nn, F):
    steps = 10
    betas = T.linspace(1e-4, 0.02, steps, dtype=T.float64).float()
    alphas = 1 - betas; ac = alphas.cumprod(0)
    ac_prev = T.cat([T.ones(1), ac[:-1]])
    c1 = betas * ac_prev.sqrt() / (1 - ac); c2 = (1 - ac_prev) * alphas.sqrt() / (1 - ac)
    net = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.GroupNorm(2, 4), nn.SiLU(), nn.Conv2d(4, 1, 3, padding=1))
    init(net, T, scale=0.2)
    x = T.tensor(arr(100, 2, 1, 4, 4))
    noises = T.tensor(arr(101, steps, 2, 1, 4, 4))
    with T.no_grad():
        for i in reversed(range(steps)):
            tt = T.full((2, 1, 4, 4), i / steps)
            eps = net(T.cat([x, tt], 1))
            x0 = (x - (1 - ac[i]).sqrt() * eps) / ac[i].sqrt()
            x0 = x0.clamp(-1, 1)
            mean = c1[i] * x0 + c2[i] * x
            x = mean + (betas[i] * (1 - ac_prev[i]) / (1 - ac[i])).sqrt() * noises[i] if i > 0 else mean
    snr = ac / (1 - ac)
    return {"x": x, "snr": snr, "cos": T.cos((T.arange(5) / 5 + 0.008) / 1.008 * math.pi / 2) ** 2}


@prog
def contrastive_moco(T, nn, F):
    q_enc = init(nn.Linear(5, 3), T); k_enc = init(nn.Linear(5, 3), T, seed=8)
    queue = F.normalize(T.tensor(arr(102, 3, 6)), dim=0)
    x = T.tensor(arr(103, 4, 5))
    q = F.normalize(q_enc(x), dim=1)
    with T.no_grad():
        for pq, pk in zip(q_enc.parameters(), k_enc.parameters()):
            pk.data = pk.data * 0.99 + pq.data * 0.01
        k = F.normalize(k_enc(x + 0.1), dim=1)
    l_pos = T.einsum("nc,nc->n", q, k).unsqueeze(-1)
    l_neg = T.einsum("nc,ck->nk", q, queue.clone().detach())
    logits = T.cat([l_pos, l_neg], 1) / 0.07
    labels = T.zeros(logits.shape[0], dtype=T.long)
    loss = nn.CrossEntropyLoss(label_smoothing=0.05)(logits, labels)
    loss.backward()
    queue = T.cat([queue[:, 4:], k.T], 1)
    acc = (logits.argmax(1) == labels).float().mean()
    return {"loss": loss.item(), "g": q_enc.weight.grad, "queue": queue, "acc": acc, "lse": T.logsumexp(logits, 1)}


@prog
def numerics3(T, nn, F):
    x = T.tensor(arr(104, 5, 6))
    y = x.clone(); y[0, 0] = float("nan")
    return {"nanmean_d": y.nanmean(1), "nansum_d": T.nansum(y, 0), "isnan_any": T.isnan(y).any(), "maxnan": y.max(),
            "amax_nan": y.amax(1), "sortnan": y[0].sort().values, "argmax_nan": y[0].argmax(),
            "clamp_nan": y[0].clamp(-1, 1),
            "fmax": T.fmax(y[0], x[1]), "fmin": T.fmin(y[0], x[1]), "maximum": T.maximum(y[0], x[1]),
            "topk_nan": y[0].topk(2).values, "nan_to_num_d": T.nan_to_num(y / 0.0),
            "logsumexp_inf": T.logsumexp(T.tensor([-float("inf"), -float("inf")]), 0),
            "std1": T.tensor([3.0]).std(), "var_corr": x.var(1, correction=0),
            "iscl": T.isclose(T.tensor([1.0, float("nan")]), T.tensor([1.0, float("nan")]), equal_nan=True),
            "ac": float(T.allclose(T.tensor([1.0, 1e-9]), T.tensor([1.0, 0.0]))), "q_nan": T.quantile(y[0], 0.5),
            "med_nan": y[0].median(),
            "kth_nan": y[0].kthvalue(6).values, "hist_vals": T.histc(x, bins=3, min=-1, max=1),
            "sgnz": T.sign(T.tensor([-0.0, 0.0, -2.0]))}


@prog
def rl_init_utils(T, nn, F):
    lin = nn.Linear(6, 4)
    nn.init.orthogonal_(lin.weight, gain=math.sqrt(2)); nn.init.constant_(lin.bias, 0.0)
    W = lin.weight.detach()
    gains = [nn.init.calculate_gain(n) for n in ("relu", "tanh", "linear",
                                                 "sigmoid")] + [nn.init.calculate_gain("leaky_relu", 0.2)]
    batch = T.repeat_interleave(T.tensor([2, 3, 1]))
    rep = T.repeat_interleave(T.tensor([[1, 2], [3, 4]]), T.tensor([1, 2]), dim=0)
    x = T.tensor(arr(110, 6))
    pooled = T.zeros(3).index_add_(0, batch, x, alpha=2.0)
    return {"orth": W @ W.T, "gains": np.array(gains), "batch": batch, "rep": rep, "pooled": pooled}


@prog
def ema_swa(T, nn, F):
    m = init(nn.Linear(3, 2), T)
    ema = T.optim.swa_utils.AveragedModel(m, multi_avg_fn=T.optim.swa_utils.get_ema_multi_avg_fn(0.9))
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    x = T.tensor(arr(111, 4, 3))
    for _ in range(3):
        l = m(x).pow(2).mean(); opt.zero_grad(); l.backward(); opt.step(); ema.update_parameters(m)
    swa = T.optim.swa_utils.AveragedModel(m)
    swa.update_parameters(m)
    ps = [p.detach().clone() for p in m.parameters()]
    T._foreach_mul_(ps, 0.5)
    T._foreach_add_(ps, [p.detach() for p in m.parameters()], alpha=0.5)
    e2 = [p.detach().clone() for p in m.parameters()]
    T._foreach_lerp_(e2, [T.zeros_like(p) for p in e2], 0.25)
    sched = T.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2)
    lrs = []
    for _ in range(8):
        opt.step(); sched.step(); lrs.append(opt.param_groups[0]["lr"])
    return {"ema": ema.module.weight, "n": ema.n_averaged, "swa": swa.module.bias, "ps": ps[0], "e2": e2[0],
            "lrs": np.array(lrs),
            "emao": ema(x)}


@prog
def func_aux(T, nn, F):
    func = T.func
    x = T.tensor(arr(112, 4))
    def f(x):
        y = x.sin()
        return y.sum(), y
    g, aux = func.grad(f, has_aux=True)(x)
    J, aux2 = func.jacrev(lambda x: (x ** 2, x.sum()), has_aux=True)(x)
    v = func.vmap(lambda r: r.norm(), chunk_size=2)(T.tensor(arr(113, 5, 3)))
    AF = T.autograd.functional
    Jv = AF.jacobian(lambda a: a.exp() * a, x, vectorize=True)
    Jc = AF.jacobian(lambda a, b: a * b, (x, x))
    return {"g": g, "aux": aux, "J": J, "aux2": aux2, "v": v, "Jv": Jv, "Jc0": Jc[0]}


@prog
def linalg_grads(T, nn, F):
    A0 = T.tensor(arr(114, 4, 4)); A = (A0 @ A0.T + T.eye(4)).requires_grad_()
    ev = T.linalg.eigh(A).eigenvalues
    (ev[-1] + ev[0] * 2).backward()
    M = T.tensor(arr(115, 5, 3)).requires_grad_()
    S = T.linalg.svdvals(M)
    S.sum().backward()
    X = T.tensor(arr(116, 4, 2)).requires_grad_()
    T.cdist(X, X.detach() + 1).sum().backward()
    B = T.tensor(arr(117, 4, 4)).requires_grad_()
    (T.linalg.inv(B @ B.T + T.eye(4)).trace() + T.logdet(B @ B.T + T.eye(4))).backward()
    return {"gA": A.grad, "gM": M.grad, "gX": X.grad, "gB": B.grad, "pdist": F.pdist(X.detach()),
            "ninf": T.linalg.norm(M.detach(), ord=float("inf")),
            "n1": T.linalg.vector_norm(M.detach(), ord=float("inf"), dim=1)}


@prog
def search_idx(T, nn, F):
    s = T.tensor([1.0, 3.0, 5.0, 7.0]); v = T.tensor([[0.0, 3.0, 6.0], [5.0, 7.0, 8.0]])
    uns = T.tensor([5.0, 1.0, 7.0, 3.0])
    x = T.tensor(arr(118, 3, 4))
    y = x.clone(); y.put_(T.tensor([0, 5]), T.tensor([9.0, 8.0]))
    mask = x > 0
    ms = T.zeros(3, 4).masked_scatter(mask, T.arange(12.0))
    return {"ss_r": T.searchsorted(s, v, side="right"), "ss_l": T.searchsorted(s, v),
            "sorter": T.searchsorted(uns, T.tensor([4.0]), sorter=uns.argsort()),
            "bucket_r": T.bucketize(v, s, right=True), "take": T.take(x, T.tensor([[0, 11], [5, 6]])), "put": y,
            "ms": ms, "triu": T.triu_indices(4, 4, offset=1), "lcs": T.logcumsumexp(x, 1),
            "cs_d": T.cumsum(T.tensor([1, 2, 3], dtype=T.int32), 0, dtype=T.float32),
            "lsm": x.log_softmax(1, dtype=T.float64),
            "maxk": T.max(x, 1, keepdim=True).values, "wh": T.where(x > 0, x, 0.5),
            "lerp": T.lerp(x, T.zeros_like(x), T.full_like(x, 0.3)),
            "clampt": T.clamp(x, min=T.zeros(4), max=T.ones(4)), "unf": T.arange(10.0).unfold(0, 2, 3),
            "ne": x.new_full((2,), 3.5)}


@prog
def losses_sci(T, nn, F):
    x = T.tensor(arr(119, 6)); y = T.tensor(np.abs(arr(120, 6)))
    var = T.tensor(np.abs(arr(121, 6)) + 0.1)
    return {"gnll_full": nn.GaussianNLLLoss(full=True)(x, y, var).item(),
            "pnll": nn.PoissonNLLLoss(log_input=False)(y + 0.1, y).item(),
            "pnll_full": F.poisson_nll_loss(x, y, full=True).item(),
            "kl_none": F.kl_div(F.log_softmax(x, 0), F.softmax(y, 0), reduction="none"),
            "huber": F.huber_loss(x, y, reduction="sum").item(), "sl1": F.smooth_l1_loss(x, y, beta=0.5).item(),
            "logit_eps": T.special.logit(T.tensor([0.0, 0.5, 1.0]), eps=1e-6),
            "soft_margin": F.soft_margin_loss(x, T.sign(y - 0.5)).item(),
            "bce_w": F.binary_cross_entropy(T.sigmoid(x), (y > 0.5).float(), weight=var).item()}


@prog
def tcn(T, nn, F):
    class TCN(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1 = nn.utils.parametrizations.weight_norm(nn.Conv1d(2, 4, 3, dilation=2))
            self.c2 = nn.Conv1d(4, 4, 3, padding="same", dilation=2)
            self.out = nn.Linear(4, 1)
        def forward(self, x):
            h = F.relu(self.c1(F.pad(x, (4, 0))))
            h = F.gelu(self.c2(h)) + h
            return self.out(h[:, :, -1])
    m = TCN()
    init(m, T)
    opt = T.optim.Adam(m.parameters(), lr=1e-2)
    x = T.tensor(arr(122, 3, 2, 12)); y = T.tensor(arr(123, 3, 1))
    out = {}
    for it in range(3):
        l = F.mse_loss(m(x), y); opt.zero_grad(); l.backward(); opt.step()
        out[f"l{it}"] = l.item()
    out["names"] = " ".join(sorted(k for k, _ in m.named_parameters()))
    return out


@prog
def embbag_pretrained(T, nn, F):
    W = T.tensor(arr(124, 10, 3))
    bag = nn.EmbeddingBag.from_pretrained(W, mode="sum", padding_idx=2)
    emb = nn.Embedding.from_pretrained(W, freeze=True)
    inp = T.tensor([[1, 2, 3], [4, 5, 2]])
    psw = T.tensor([[0.5, 1.0, 2.0], [1.0, 1.0, 1.0]])
    return {"bag": bag(inp, per_sample_weights=psw), "emb": emb(inp).sum(1), "frozen": float(emb.weight.requires_grad),
            "eb_f": F.embedding_bag(T.tensor([1, 3, 5, 7]), W, T.tensor([0, 1]), mode="max"),
            "mult": T.multinomial(T.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]), 1), "cnt": T.count_nonzero(inp == 2)}


@prog
def dist_families(T, nn, F):
    D = T.distributions
    v = T.tensor([0.3, 1.2, 2.5])
    sc = T.tensor([0.5, 1.0, 2.0])
    out = {}
    for name, d, x in [("hn", D.HalfNormal(sc), v), ("hc", D.HalfCauchy(sc), v),
                       ("gu", D.Gumbel(T.tensor([0.0, 1.0, -1.0]), sc), v),
                       ("chi", D.Chi2(T.tensor([1.0, 3.0, 5.0])), v), ("wb", D.Weibull(sc, T.tensor([0.8, 1.5, 3.0])),
                                                                       v),
                       ("pa", D.Pareto(T.tensor([0.2, 1.0, 1.0]), T.tensor([3.0, 2.5, 4.0])), v + 1),
                       ("nb", D.NegativeBinomial(T.tensor([2.0, 5.0, 1.0]), probs=T.tensor([0.3, 0.6, 0.5])),
                        T.tensor([0.0, 3.0, 7.0]))]:
        out[name + "_lp"] = d.log_prob(x)
        out[name + "_mean"] = d.mean
        out[name + "_var"] = d.variance
        if name not in ("nb", "pa", "chi"):
            out[name + "_ent"] = d.entropy()
        if name in ("hn", "gu", "wb", "pa", "hc"):
            out[name + "_cdf"] = d.cdf(x)
            out[name + "_rs"] = np.array(d.rsample((4,)).shape)
        out[name + "_s"] = np.array(d.sample((2,)).shape)
    out["nb_mode"] = D.NegativeBinomial(T.tensor([2.0, 5.0]), logits=T.tensor([0.3, 1.2])).mode
    out["pa_ent"] = D.Pareto(T.tensor(1.0), T.tensor(3.0)).entropy()
    out["chi_ent"] = D.Chi2(T.tensor([3.0])).entropy()
    out["hn_out"] = D.HalfNormal(1.0, validate_args=False).log_prob(T.tensor(-1.0))
    m = D.Multinomial(10, probs=T.tensor([0.2, 0.3, 0.5]))
    out["mn_lp"] = m.log_prob(T.tensor([[2.0, 3.0, 5.0], [0.0, 0.0, 10.0]]))
    out["mn_zero"] = D.Multinomial(4, probs=T.tensor([0.0, 0.5, 0.5])).log_prob(T.tensor([0.0, 1.0, 3.0]))
    out["mn_mean"] = m.mean; out["mn_var"] = m.variance
    s = m.sample((6,))
    out["mn_s"] = s.sum(-1); out["mn_shape"] = np.array(s.shape)
    mb = D.Multinomial(5, logits=T.tensor(arr(130, 2, 4)))
    out["mb_s"] = mb.sample().sum(-1)
    out["mb_lp"] = mb.log_prob(T.tensor([[1.0, 1.0, 2.0, 1.0], [5.0, 0.0, 0.0, 0.0]]))
    out["hn_exp"] = D.HalfNormal(T.tensor([1.0, 2.0])).expand([3, 2]).log_prob(T.ones(3, 2))
    T.manual_seed(0)
    g = D.Gumbel(0.0, 1.0).rsample((4000,))
    out["gumbel_mean_ok"] = float(abs(g.mean().item() - 0.5772) < 0.15)
    return out


@prog
def printing2(T, nn, F):
    out = {}
    loss = T.tensor(0.123456)
    out["f1"] = f"loss {loss:.4f}"
    out["f2"] = "%.3f" % loss
    out["f3"] = str(round(loss.item(), 3))
    out["f4"] = str(T.tensor([1.5, 2.25]).tolist())
    out["f5"] = str(T.tensor([[1, 2]]).tolist())
    out["f6"] = str(T.arange(2000.0))
    out["f7"] = str(T.tensor(arr(140, 3, 4)))
    out["f8"] = str(T.tensor([1e-8, 1.0, 1e8]))
    out["f9"] = str(T.tensor([[0.1, 200.0], [3.0, 4.0]]))
    out["f10"] = str(T.tensor([1, -2, 300]))
    out["f11"] = str(T.ones(2, 1, 2))
    out["f12"] = str(T.tensor([]))
    out["f13"] = str(T.tensor(arr(141, 2), ).requires_grad_())
    out["f15"] = str(float(T.tensor([2.5])))
    out["f16"] = f"{T.tensor(3)}"
    out["f17"] = str(T.tensor([True]).item())
    out["f18"] = str(T.tensor(7).item())
    T.set_printoptions(precision=2)
    out["p2"] = str(T.tensor([1.23456, 2.0]))
    T.set_printoptions(profile="default")
    out["p3"] = str(T.tensor([1.23456, 2.0]))
    T.set_printoptions(sci_mode=False)
    out["p4"] = str(T.tensor([1e-5, 1.0]))
    T.set_printoptions(sci_mode=None)
    return out


@prog
def module_reprs(T, nn, F):
    mods = [nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Dropout(0.1)),
            nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False),
            nn.LSTM(4, 8, num_layers=2, batch_first=True), nn.Embedding(10, 4, padding_idx=0), nn.GroupNorm(4, 8),
            nn.BatchNorm1d(5), nn.LayerNorm(6), nn.GRU(3, 5), nn.EmbeddingBag(10, 3, mode="sum"),
            nn.Conv1d(2, 4, 3, dilation=2),
            nn.MaxPool2d(2), nn.AdaptiveAvgPool2d((1, 1)),
            nn.SiLU(), nn.LeakyReLU(0.2), nn.Softplus(), nn.ModuleList([nn.Tanh()]),
            nn.MultiheadAttention(8, 2), nn.TransformerEncoderLayer(8, 2, 16)]
    return {f"m{i}": str(m) for i, m in enumerate(mods)}


@prog
def classic_ml2(T, nn, F):
    X = T.tensor(arr(142, 40, 3)); y = (X[:, 0] + X[:, 1] ** 2 > 0.5).long()
    # softmax regression with weight decay, full batch, evaluated with confusion matrix
    m = init(nn.Linear(3, 2), T)
    opt = T.optim.Adam(m.parameters(), lr=0.1, weight_decay=1e-3)
    for _ in range(20):
        l = F.cross_entropy(m(X), y); opt.zero_grad(); l.backward(); opt.step()
    pred = m(X).argmax(1)
    cm = T.zeros(2, 2, dtype=T.long)
    cm.index_put_((y, pred), T.ones(40, dtype=T.long), accumulate=True)
    conf = T.bincount(y * 2 + pred, minlength=4).reshape(2, 2)
    prec = cm[1, 1] / cm[:, 1].sum().clamp(min=1)
    # standardization + polynomial features + closed-form
    mu, sd = X.mean(0), X.std(0)
    Z = (X - mu) / sd
    P = T.cat([T.ones(40, 1), Z, Z ** 2, Z[:, :1] * Z[:, 1:2]], 1)
    w = T.linalg.lstsq(P, y.float().unsqueeze(1)).solution
    # ROC AUC by ranks
    s = F.softmax(m(X), 1)[:, 1]
    order = s.argsort()
    ranks = T.empty_like(order); ranks[order] = T.arange(40)
    n1 = y.sum(); n0 = 40 - n1
    auc = (ranks[y == 1].float().sum() - n1 * (n1 - 1) / 2) / (n1 * n0)
    return {"l": l.item(), "cm": cm, "conf": conf, "prec": prec, "w": w, "auc": auc, "acc": (pred == y).float().mean()}


@prog
def dataloader_rl(T, nn, F):
    U = T.utils.data
    obs = T.tensor(arr(143, 12, 3)); ret = T.tensor(arr(144, 12))
    ds = U.TensorDataset(obs, ret)
    dl = U.DataLoader(ds, batch_size=5, shuffle=False, drop_last=False)
    net = init(nn.Linear(3, 1), T)
    opt = T.optim.SGD(net.parameters(), lr=0.1)
    ls = []
    for o, r in dl:
        l = F.mse_loss(net(o).squeeze(-1), r); opt.zero_grad(); l.backward(); opt.step(); ls.append(l.item())
    sub = U.Subset(ds, [0, 3, 5])
    tr, va = U.random_split(ds, [8, 4], generator=T.Generator().manual_seed(0))
    return {"ls": np.array(ls), "sub": sub[1][1], "lens": np.array([len(tr), len(va)]), "nb": np.array(len(dl))}


@prog
def sci_autograd2(T, nn, F):
    x = T.tensor(arr(150, 3)).requires_grad_()
    y = T.stack([x[0] * x[1], x[1].sin(), x[2] ** 3])
    eye = T.eye(3)
    J = T.autograd.grad(y, x, grad_outputs=eye, is_grads_batched=True)[0]
    z = T.linspace(0, 2, 9) ** 2
    g1 = T.gradient(z, spacing=0.25)[0]
    g2 = T.gradient(T.tensor(arr(151, 4, 5)), dim=1)[0]
    g3 = T.gradient(T.tensor(arr(161, 6, 3)), spacing=[0.5, 2.0], edge_order=2)
    g4 = T.gradient(z, spacing=(T.tensor([0.0, 0.1, 0.3, 0.4, 0.8, 1.0, 1.1, 1.5, 2.0]),))[0]
    d = T.diff(T.tensor([1.0, 4.0, 9.0]), prepend=T.tensor([0.0]), append=T.tensor([16.0]))
    return {"J": J, "g1": g1, "g2": g2, "d": d, "g30": g3[0], "g31": g3[1], "g4": g4}


@prog
def nerf_grads(T, nn, F):
    sigma = T.relu(T.tensor(arr(153, 3, 8))).requires_grad_()
    alpha = 1 - T.exp(-sigma * 0.2)
    trans = T.cumprod(T.cat([T.ones(3, 1), 1 - alpha], -1), -1)[:, :-1]
    w = alpha * trans
    rgb = T.sigmoid(T.tensor(arr(154, 3, 8, 3)))
    col = (w[..., None] * rgb).sum(-2)
    depth = (w * T.linspace(0, 1, 8)).sum(-1)
    (col.sum() + depth.sum()).backward()
    c = T.tensor([1.0, 0.0, 2.0, 3.0], requires_grad=True)
    T.cumprod(c, 0).sum().backward()
    return {"col": col, "gs": sigma.grad, "gc": c.grad, "acc": w.sum(-1)}


@prog
def einsum_misc(T, nn, F):
    a = T.tensor(arr(155, 2, 3, 4)); b = T.tensor(arr(156, 2, 4, 5)); m = T.tensor(arr(157, 4, 4))
    x = T.tensor(arr(158, 3)).requires_grad_()
    h = x * 2; h.retain_grad()
    grads = []
    hk = h.register_hook(lambda g: grads.append(g.clone()))
    (h ** 2).sum().backward()
    hk.remove()
    net = init(nn.Linear(3, 2), T)
    net(T.tensor(arr(159, 4, 3))).pow(2).sum().backward()
    tn = nn.utils.clip_grad_norm_(net.parameters(), 0.1)
    return {"bmm": T.einsum("...ij,...jk->...ik", a, b), "diag": T.einsum("ii->i", m), "tr": T.einsum("ii", m),
            "outer": T.einsum("i,j->ij", m[0], m[1]), "hg": h.grad, "hook": grads[0], "tn": tn, "gw": net.weight.grad,
            "smin": F.softmin(m, dim=1),
            "ct1": F.conv_transpose1d(a[:, :, :3].transpose(1, 2).contiguous(), T.tensor(arr(160, 3, 2, 3)), stride=2)}


@prog
def rl_vec_env(T, nn, F):
    # a batched toy environment stepped with tensors, as vectorized-env RL code does
    n = 6
    pos = T.zeros(n); vel = T.zeros(n)
    pol = init(nn.Linear(2, 3), T)
    D = T.distributions
    total = T.zeros(n); lps = []
    for t in range(5):
        obs = T.stack([pos, vel], 1)
        d = D.Categorical(logits=pol(obs))
        a = T.tensor([(t + i) % 3 for i in range(n)])
        lps.append(d.log_prob(a))
        vel = (vel + 0.1 * (a.float() - 1)).clamp(-1, 1)
        pos = pos + vel
        r = -pos.abs()
        done = pos.abs() > 0.5
        total = total + r
        pos = T.where(done, T.zeros_like(pos), pos); vel = vel.masked_fill(done, 0.0)
    loss = -(T.stack(lps).sum(0) * total).mean()
    loss.backward()
    return {"total": total, "loss": loss.item(), "g": pol.weight.grad}


@prog
def forward_ad(T, nn, F):
    import importlib
    fwAD = importlib.import_module(T.__name__ + ".autograd.forward_ad")
    x = T.tensor(arr(152, 4)); v = T.ones(4)
    lin = init(nn.Linear(4, 3), T)
    with fwAD.dual_level():
        dx = fwAD.make_dual(x, v)
        dw = fwAD.make_dual(T.tensor(arr(162, 4)), T.tensor(arr(163, 4)))
        out = (dx.sin() * dx).sum()
        p, t = fwAD.unpack_dual(out)
        y = T.tanh(lin(dx * dw))
        ty = fwAD.unpack_dual(y).tangent
        none = fwAD.unpack_dual(T.ones(2)).tangent
        same = fwAD.unpack_dual(dx).tangent
    return {"p": p, "t": t, "ty": ty, "none": float(none is None), "same": same}


@prog
def fm_recommender(T, nn, F):
    class FM(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(12, 4); self.lin = nn.Embedding(12, 1); self.bias = nn.Parameter(T.zeros(1))
        def forward(self, x):
            e = self.emb(x)
            inter = 0.5 * (e.sum(1).pow(2) - e.pow(2).sum(1)).sum(1, keepdim=True)
            return (self.lin(x).sum(1) + inter + self.bias).squeeze(1)
    m = init(FM(), T)
    opt = T.optim.Adam(m.parameters(), lr=0.01)
    x = T.tensor(np.array([[0, 5, 9], [1, 6, 10], [2, 7, 11], [3, 4, 8]])); y = T.tensor([1.0, 0.0, 1.0, 0.0])
    out = {}
    for it in range(3):
        l = F.binary_cross_entropy_with_logits(m(x), y); opt.zero_grad(); l.backward(); opt.step()
        out[f"l{it}"] = l.item()
    return out


@prog
def ts_decompose(T, nn, F):
    t = T.arange(48.0)
    s = T.sin(2 * math.pi * t / 12) + 0.05 * t + 0.1 * T.tensor(arr(170, 48))
    x = s.view(1, 1, -1)
    trend = F.avg_pool1d(F.pad(x, (5, 6), mode="replicate"), 12, stride=1).view(-1)
    detr = s - trend
    seas = detr.view(4, 12).mean(0).repeat(4)
    lstm = nn.LSTM(1, 6, batch_first=True, proj_size=2)
    init(lstm, T)
    o, (h, c) = lstm(s.view(4, 12, 1))
    rnn = init(nn.RNN(1, 3, nonlinearity="relu", batch_first=True), T)
    o2, h2 = rnn(s.view(4, 12, 1))
    lens = T.tensor([12, 9, 7, 3])
    packed = nn.utils.rnn.pack_padded_sequence(s.view(4, 12, 1), lens, batch_first=True)
    po, (ph, pc) = lstm(packed)
    pad, plen = nn.utils.rnn.pad_packed_sequence(po, batch_first=True)
    return {"trend": trend, "seas": seas, "o": o, "h": h, "c": c, "o2": o2[:, -1], "ph": ph, "pad": pad, "plen": plen}


@prog
def mdn_multivariate(T, nn, F):
    D = T.distributions
    net = init(nn.Linear(3, 3 * 5), T)
    x = T.tensor(arr(171, 6, 3)); y = T.tensor(arr(172, 6, 2))
    o = net(x)
    logit, mu, ls = o[:, :3], o[:, 3:9].view(6, 3, 2), o[:, 9:].view(6, 3, 2)
    comp = D.Independent(D.Normal(mu, F.softplus(ls) + 1e-3), 1)
    mix = D.MixtureSameFamily(D.Categorical(logits=logit), comp)
    nll = -mix.log_prob(y).mean()
    nll.backward()
    return {"nll": nll.item(), "mean": mix.mean, "var": mix.variance, "g": net.weight.grad,
            "ss": np.array(mix.sample((2,)).shape)}


@prog
def knn_graph(T, nn, F):
    X = T.tensor(arr(173, 8, 2))
    d = T.cdist(X, X)
    d.fill_diagonal_(float("inf"))
    nbr = d.topk(3, largest=False).indices
    src = T.arange(8).repeat_interleave(3); dst = nbr.reshape(-1)
    A = T.zeros(8, 8); A[src, dst] = 1.0
    A = ((A + A.T) > 0).float()
    deg = A.sum(1)
    L = T.diag(deg) - A
    ev = T.linalg.eigvalsh(L)
    Dm = T.diag(deg.pow(-0.5))
    An = Dm @ A @ Dm
    return {"nbr": nbr, "A": A, "ev": ev, "An": An, "comp": (ev < 1e-4).sum()}


@prog
def ddim_vpred(T, nn, F):
    steps = 20
    t_ = T.arange(steps + 1, dtype=T.float64) / steps
    ac = (T.cos((t_ + 0.008) / 1.008 * math.pi / 2) ** 2); ac = (ac / ac[0]).float()
    betas = (1 - ac[1:] / ac[:-1]).clamp(max=0.999)
    acp = T.cumprod(1 - betas, 0)
    net = init(nn.Sequential(nn.Linear(3, 16), nn.SiLU(), nn.Linear(16, 2)), T, scale=0.3)
    x0 = T.tensor(arr(174, 5, 2)); eps = T.tensor(arr(175, 5, 2)); t = T.tensor([0, 4, 9, 14, 19])
    a = acp[t].unsqueeze(1)
    xt = a.sqrt() * x0 + (1 - a).sqrt() * eps
    v = a.sqrt() * eps - (1 - a).sqrt() * x0
    pred = net(T.cat([xt, t.float().unsqueeze(1) / steps], 1))
    loss = F.mse_loss(pred, v)
    loss.backward()
    with T.no_grad():
        x = eps.clone()
        seq = list(range(steps - 1, -1, -5))
        for i, j in zip(seq, seq[1:] + [-1]):
            ai = acp[i]; aj = acp[j] if j >= 0 else T.tensor(1.0)
            vp = net(T.cat([x, T.full((5, 1), i / steps)], 1))
            x0p = ai.sqrt() * x - (1 - ai).sqrt() * vp
            ep = (1 - ai).sqrt() * x + ai.sqrt() * vp
            x = aj.sqrt() * x0p + (1 - aj).sqrt() * ep
    return {"loss": loss.item(), "g": net[0].weight.grad, "x": x, "betas": betas}


@prog
def masked_actions(T, nn, F):
    D = T.distributions
    logits = T.tensor(arr(180, 4, 5)).requires_grad_()
    mask = T.tensor([[1, 1, 0, 1, 0], [1, 0, 0, 0, 0], [1, 1, 1, 1, 1], [0, 1, 0, 1, 1]]).bool()
    ml = logits.masked_fill(~mask, float("-inf"))
    d = D.Categorical(logits=ml)
    ent = d.entropy()
    lp = d.log_prob(T.tensor([3, 0, 2, 4]))
    (ent.sum() + lp.sum()).backward()
    d2 = D.Categorical(logits=logits.detach().masked_fill(~mask, -1e8))
    s = d.sample((50,))
    kl = D.kl_divergence(d, D.Categorical(logits=logits.detach()))
    return {"ent": ent, "lp": lp, "g": logits.grad, "ent2": d2.entropy(), "valid": float(mask.gather(1, s.T).all()),
            "probs": d.probs, "kl": kl, "mode": d.mode}


@prog
def beta_policy(T, nn, F):
    D = T.distributions
    net = init(nn.Linear(3, 4), T)
    x = T.tensor(arr(181, 5, 3)); a = T.sigmoid(T.tensor(arr(182, 5, 2)))
    ab = F.softplus(net(x)) + 1
    d = D.Beta(ab[:, :2], ab[:, 2:])
    lp = d.log_prob(a).sum(-1); ent = d.entropy().sum(-1)
    (-(lp.mean()) - 0.01 * ent.mean()).backward()
    s = d.sample()
    return {"lp": lp, "ent": ent, "g": net.weight.grad, "mean": d.mean, "var": d.variance,
            "in01": float(((s > 0) & (s < 1)).all())}


@prog
def feature_distill(T, nn, F):
    teacher = init(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)), T, seed=1)
    student = init(nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3)), T, seed=2)
    proj = init(nn.Linear(6, 8), T, seed=3)
    feats = {}
    h1 = teacher[1].register_forward_hook(lambda m, i, o: feats.__setitem__("t", o))
    h2 = student[1].register_forward_hook(lambda m, i, o: feats.__setitem__("s", o))
    x = T.tensor(arr(183, 7, 4))
    with T.no_grad():
        tl = teacher(x)
    sl = student(x)
    fl = F.mse_loss(proj(feats["s"]), feats["t"].detach())
    kd = F.kl_div(F.log_softmax(sl / 2, -1), F.log_softmax(tl / 2, -1), reduction="batchmean", log_target=True) * 4
    at = (F.normalize(feats["s"].pow(2).mean(0), dim=0) - F.normalize(feats["t"].pow(2).mean(0)[:6],
                                                                      dim=0)).pow(2).sum()
    loss = fl + kd + at
    loss.backward()
    h1.remove(); h2.remove()
    return {"fl": fl.item(), "kd": kd.item(), "at": at.item(), "gs": student[0].weight.grad, "gp": proj.weight.grad}


@prog
def supcon(T, nn, F):
    z = F.normalize(T.tensor(arr(184, 8, 4)), dim=1)
    labels = T.tensor([0, 1, 0, 1, 2, 2, 0, 1])
    sim = z @ z.T / 0.1
    self_mask = T.eye(8, dtype=T.bool)
    pos = (labels[:, None] == labels[None, :]) & ~self_mask
    sim = sim.masked_fill(self_mask, -1e9)
    logp = sim - T.logsumexp(sim, dim=1, keepdim=True)
    loss = -(logp * pos).sum(1) / pos.sum(1)
    ce = F.cross_entropy(sim, T.tensor([2, 3, 0, 1, 5, 4, 0, 1]), reduction="none", label_smoothing=0.2)
    ce_w = F.cross_entropy(sim, T.tensor([2, 3, 0, 1, 5, 4, 0, 1]), weight=T.linspace(0.5, 1.5, 8), label_smoothing=0.1)
    return {"loss": loss, "ce": ce, "ce_w": ce_w.item(), "bd": T.block_diag(T.ones(2, 2), T.ones(1, 1))}


@prog
def numerics_int(T, nn, F):
    i = T.tensor([[3, -7, 2, 2], [5, 5, -1, 0]])
    f = T.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5])
    u = T.unique(T.tensor([3, 1, 2, 3, 1, 5]), return_inverse=True, return_counts=True)
    ud = T.unique(T.tensor([[1, 2], [3, 4], [1, 2]]), dim=0, return_inverse=True)
    out = {"topk": i.topk(2, dim=1).values, "cummax": i.cummax(1).values, "mode": i.mode(1).values,
           "floordiv": i // 3, "divfloor": T.div(i, 3, rounding_mode="floor"),
           "divtrunc": T.div(i, 3, rounding_mode="trunc"),
           "fmod": T.fmod(i, 3), "rem": T.remainder(i, 3), "round": f.round(), "n2n": T.nan_to_num(i),
           "isclose": T.isclose(i, i + 1, atol=1), "u0": u[0], "u1": u[1], "u2": u[2], "ud0": ud[0], "ud1": ud[1],
           "median": i.median(), "kth": i.kthvalue(2, 1).values, "amax": i.amax(0),
           "sum_dtype": i.sum().dtype == T.int64,
           "mean_f": i.float().mean(1), "prod": i.prod(1), "bucket": T.bucketize(i, T.tensor([0, 3])), "abs": i.abs(),
           "sign": i.sign(), "clamp": i.clamp(-2, 4), "true_div": i / 2, "pow": i ** 2,
           "neg_pow": T.tensor([2.0]) ** -1}
    raised = []
    for fn in (lambda: T.allclose(T.tensor([1.0]), T.tensor([1.0], dtype=T.float64)), lambda: i.std(),
               lambda: i.float().clamp_(min=0).long().clamp_(min=0.5)):
        try:
            fn(); raised.append(0)
        except Exception:
            raised.append(1)
    out["raised"] = np.array(raised)
    return out


@prog
def linalg_batched(T, nn, F):
    A = T.tensor(arr(190, 2, 3, 3)); A = A @ A.transpose(-1, -2) + 3 * T.eye(3)
    b = T.tensor(arr(191, 3))
    M = T.tensor(arr(192, 2, 5, 3)); y = T.tensor(arr(193, 2, 5, 2))
    L = T.linalg.cholesky(A)
    U = L.transpose(-1, -2)
    K = T.tensor([[0.0, 1.0], [-2.0, -0.3]])
    ts = T.triangular_solve(y[:, :3], U, upper=True).solution
    ts2 = T.triangular_solve(y[:, :3], U, upper=True, transpose=True)[0]
    ts3 = y[:, :3].triangular_solve(L, upper=False, unitriangular=True).solution
    return {"solve_b": T.linalg.solve(A, b), "lstsq": T.linalg.lstsq(M, y).solution,
            "svd_full": T.linalg.svd(M)[0].abs().sum(),
            "qr_c": T.linalg.qr(M, mode="complete")[1].abs(), "det": T.linalg.det(A), "inv": T.linalg.inv(A),
            "cs_up": T.cholesky_solve(y[:, :3], U, upper=True), "expm": T.linalg.matrix_exp(K * 0.5),
            "evb": T.linalg.eigh(A)[0], "nrm": T.linalg.norm(M, dim=(1, 2)), "dist": T.dist(M[0], M[1], p=3),
            "cdist_b": T.cdist(M, M[:, :2]), "ts": ts, "ts2": ts2, "ts3": ts3, "kron": T.kron(K, T.eye(2)),
            "pinv": T.linalg.pinv(M),
            "mrank": T.linalg.matrix_rank(M), "cond": T.linalg.cond(A)}


@prog
def optim_zoo(T, nn, F):
    x = T.tensor(arr(200, 6, 3)); y = T.tensor(arr(201, 6, 1))
    out = {}
    specs = [("rprop", lambda p: T.optim.Rprop(p, lr=0.05)), ("asgd", lambda p: T.optim.ASGD(p, lr=0.05)),
             ("adagrad", lambda p: T.optim.Adagrad(p, lr=0.1, lr_decay=0.01, weight_decay=0.01)),
             ("rms_c", lambda p: T.optim.RMSprop(p, lr=0.01, centered=True, momentum=0.9, weight_decay=0.01)),
             ("adamax", lambda p: T.optim.Adamax(p, lr=0.05)), ("nadam",
                                                                lambda p: T.optim.NAdam(p, lr=0.05,
                                                                momentum_decay=0.004)),
             ("radam", lambda p: T.optim.RAdam(p, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
             ("adadelta", lambda p: T.optim.Adadelta(p, lr=1.0, rho=0.9)),
             ("sgd_d", lambda p: T.optim.SGD(p, lr=0.05, momentum=0.9, dampening=0.1, weight_decay=0.01)),
             ("adamw_ams", lambda p: T.optim.AdamW(p, lr=0.05, amsgrad=True, weight_decay=0.05))]
    for name, make in specs:
        m = init(nn.Linear(3, 1), T)
        opt = make(m.parameters())
        for _ in range(6):
            l = F.mse_loss(m(x), y); opt.zero_grad(); l.backward(); opt.step()
        out[name] = m.weight
    return out


@prog
def gat_layer(T, nn, F):
    N = 5
    src = T.tensor([0, 1, 2, 3, 4, 0, 2, 4, 1]); dst = T.tensor([1, 2, 3, 4, 0, 2, 4, 1, 3])
    W = init(nn.Linear(3, 4, bias=False), T); att = nn.Parameter(T.tensor(arr(210, 2, 4)))
    x = T.tensor(arr(211, N, 3))
    h = W(x).view(N, 2, 2)
    a_src = (h * att[:, :2]).sum(-1); a_dst = (h * att[:, 2:]).sum(-1)
    e = F.leaky_relu(a_src[src] + a_dst[dst], 0.2)
    emax = T.full((N, 2), float("-inf"))
    emax.scatter_reduce_(0, dst.unsqueeze(1).expand(-1, 2), e, reduce="amax", include_self=False)
    ex = (e - emax[dst]).exp()
    den = T.zeros(N, 2).scatter_add_(0, dst.unsqueeze(1).expand(-1, 2), ex)
    alpha = ex / (den[dst] + 1e-16)
    alpha = F.dropout(alpha, p=0.0, training=True)
    out = T.zeros(N, 2, 2).index_add_(0, dst, h[src] * alpha.unsqueeze(-1))
    out = F.elu(out.mean(1))
    out.sum().backward()
    ir = T.zeros(N, 2).index_reduce_(0, dst, e, "amin", include_self=False)
    return {"alpha": alpha, "out": out, "gW": W.weight.grad, "gatt": att.grad, "ir": ir}


@prog
def index_put_idioms(T, nn, F):
    x = T.zeros(4, 5)
    x.index_put_((T.tensor([0, 2]),), T.tensor([1.0, 2.0, 3.0, 4.0, 5.0]))
    x[T.tensor([1, 3]), T.tensor([0, 4])] += T.tensor([7.0, 8.0])
    x[:, T.tensor([1, 2])] = T.tensor([[9.0], [9.5], [9.25], [9.75]])
    y = T.zeros(6).index_put_((T.tensor([1, 1, 3]),), T.tensor([1.0, 2.0, 3.0]), accumulate=True)
    z = T.zeros(3, 3).scatter_add_(1, T.tensor([[0, 0], [1, 2], [2, 2]]), T.ones(3, 2))
    w = T.arange(12.0).view(3, 4)
    w[w > 5] = -1
    w[1] = T.tensor([0.5, 0.5, 0.5, 0.5])
    m = T.zeros(3, 4); m.masked_scatter_(w < 0, T.arange(10.0, 20.0))
    return {"x": x, "y": y, "z": z, "w": w, "m": m}


@prog
def embbag_psw_pad(T, nn, F):
    W = T.tensor(arr(212, 8, 3)).requires_grad_()
    inp = T.tensor([1, 0, 3, 4, 0, 6]); offs = T.tensor([0, 2, 4])
    psw = T.tensor([0.5, 2.0, 1.5, -1.0, 3.0, 0.25])
    o = F.embedding_bag(inp, W, offs, mode="sum", per_sample_weights=psw, padding_idx=0)
    o2 = F.embedding_bag(inp, W, offs, mode="mean", padding_idx=0)
    o3 = F.embedding_bag(inp, W, T.tensor([0, 2, 4, 6]), mode="max", include_last_offset=True)
    (o.sum() + o2.pow(2).sum() + o3.sum()).backward()
    return {"o": o, "o2": o2, "o3": o3, "g": W.grad}


# What each program gave under torch 2 (see _check).
nan, inf = math.nan, math.inf
EXPECTED = {'a2c_gru_policy': {'loss0': ([], [1.071314]), 'loss1': ([], [1.014105])},
 'actor_critic_normal': {'cdf': ([6, 2], [5.6589253, 5.6589253, -0.61694932]),
                         'loss0': ([], [-1.0852]),
                         'loss1': ([], [-2.358618]),
                         'loss2': ([], [-2.750406]),
                         'rs': ([], [1.0])},
 'beta_policy': {'ent': ([5], [-0.1188384, -0.1474024, -0.1280821, -0.153286, -0.1250738]),
                 'g': ([4, 3], [-0.026272835, 0.74571209, 0.044556059]),
                 'in01': ([], [1.0]),
                 'lp': ([5], [0.2004805, 0.3238503, 0.4953279, 0.5764828, 0.4559794]),
                 'mean': ([5, 2], [4.8937724, 4.8937724, 0.17443814]),
                 'var': ([5, 2], [0.60439911, 0.60439911, 0.035440735])},
 'burgers_pinn_lbfgs': {'l': ([2], [2.010117, 0.07319568]),
                        'w': ([10, 2], [-1.9850751, 6.5940224, 2.0831068])},
 'classic_ml2': {'acc': ([], [0.925]),
                 'auc': ([], [0.9823232]),
                 'cm': ([2, 2], [16.0, 2.0, 1.0, 21.0]),
                 'conf': ([2, 2], [16.0, 2.0, 1.0, 21.0]),
                 'l': ([], [0.2110124]),
                 'prec': ([], [0.9130435]),
                 'w': ([8, 1],
                       [0.5157763, 0.3563087, -0.03912439, 0.1240373, -0.01925032, 0.05872424, -0.008338439,
                        0.05136991])},
 'contrastive': {'g': ([4, 6], [0.11113149, 1.9468522, -0.28907637]),
                 'loss': ([], [0.4964868]),
                 'pd': ([5], [0.02348983, 0.03088114, 0.1433526, 0.05865178, 0.1078283]),
                 'sim': ([10, 10], [-8.9999998e+16, 8.9999998e+16, -9195568600000000.0])},
 'contrastive_moco': {'acc': ([], [0.0]),
                      'g': ([3, 5], [17.167087, 98.704831, 45.650508]),
                      'loss': ([], [10.43288]),
                      'lse': ([4], [9.424008, 3.92963, 6.383138, 4.954037]),
                      'queue': ([3, 6], [0.73800896, 8.8821657, -1.4292507])},
 'dataloader_rl': {'lens': ([2], [8.0, 4.0]),
                   'ls': ([3], [0.3037045, 0.6927358, 0.7101431]),
                   'nb': ([], [3.0]),
                   'sub': ([], [0.7090136])},
 'ddim_vpred': {'betas': ([20], [4.8321983, 4.8321983, 0.92375694]),
                'g': ([16, 3], [-0.59725729, 1.6912638, -0.18059789]),
                'loss': ([], [1.23695]),
                'x': ([5, 2], [1.6198224, 5.0309418, 0.21995914])},
 'ddpm': {'loss0': ([], [1.016159]),
          'loss1': ([], [1.005118]),
          'loss2': ([], [0.9946436]),
          'post_var': ([50], [0.46840032, 0.46840032, -0.01401967]),
          'temb': ([3, 8], [7.398876, 14.083565, 1.279256])},
 'diffusion_sample_loop': {'cos': ([5], [0.9998446, 0.8985662, 0.6473776, 0.3407566, 0.09403094]),
                           'snr': ([10], [10756.866, 10756.866, 10090.292]),
                           'x': ([2, 1, 4, 4], [-1.7430544, 21.527428, -1.0603094])},
 'dist_families': {'chi_ent': ([1], [2.05412]),
                   'chi_lp': ([3], [-0.4669521, -1.427778, -1.893115]),
                   'chi_mean': ([3], [1.0, 3.0, 5.0]),
                   'chi_s': ([2], [2.0, 3.0]),
                   'chi_var': ([3], [2.0, 6.0, 10.0]),
                   'gu_cdf': ([3], [0.5776359, 0.4409911, 0.840487]),
                   'gu_ent': ([3], [0.8840685, 1.577216, 2.270363]),
                   'gu_lp': ([3], [-0.4556644, -1.018731, -2.616921]),
                   'gu_mean': ([3], [0.2886078, 1.577216, 0.1544313]),
                   'gu_rs': ([2], [4.0, 3.0]),
                   'gu_s': ([2], [2.0, 3.0]),
                   'gu_var': ([3], [0.4112335, 1.644934, 6.579737]),
                   'gumbel_mean_ok': ([], [1.0]),
                   'hc_cdf': ([3], [0.3440417, 0.5577159, 0.5704465]),
                   'hc_ent': ([3], [1.14473, 1.837877, 2.531024]),
                   'hc_lp': ([3], [-0.06592023, -1.343581, -2.085713]),
                   'hc_mean': ([3], [inf, inf, inf]),
                   'hc_rs': ([2], [4.0, 3.0]),
                   'hc_s': ([2], [2.0, 3.0]),
                   'hc_var': ([3], [inf, inf, inf]),
                   'hn_cdf': ([3], [0.4514937, 0.7698607, 0.7887005]),
                   'hn_ent': ([3], [0.03264415, 0.7257913, 1.418939]),
                   'hn_exp': ([3, 2], [-0.7257913, -1.043939, -0.7257913, -1.043939, -0.7257913, -1.043939]),
                   'hn_lp': ([3], [0.2873558, -0.9457914, -1.700189]),
                   'hn_mean': ([3], [0.3989423, 0.7978846, 1.595769]),
                   'hn_out': ([], [-inf]),
                   'hn_rs': ([2], [4.0, 3.0]),
                   'hn_s': ([2], [2.0, 3.0]),
                   'hn_var': ([3], [0.09084506, 0.3633802, 1.453521]),
                   'mb_lp': ([2], [-4.57388, -9.739711]),
                   'mb_s': ([2], [5.0, 5.0]),
                   'mn_lp': ([2], [-2.464515, -6.931472]),
                   'mn_mean': ([3], [2.0, 3.0, 5.0]),
                   'mn_s': ([6], [10.0, 10.0, 10.0, 10.0, 10.0, 10.0]),
                   'mn_shape': ([2], [6.0, 3.0]),
                   'mn_var': ([3], [1.6, 2.1, 2.5]),
                   'mn_zero': ([], [-1.386294]),
                   'nb_lp': ([3], [-0.7133499, -2.558582, -5.545177]),
                   'nb_mean': ([3], [0.8571429, 7.500001, 1.0]),
                   'nb_mode': ([2], [1.0, 13.0]),
                   'nb_s': ([2], [2.0, 3.0]),
                   'nb_var': ([3], [1.22449, 18.75, 2.0]),
                   'pa_cdf': ([3], [0.9963587, 0.8607025, 0.9933361]),
                   'pa_ent': ([], [0.2347211]),
                   'pa_lp': ([3], [-4.779158, -1.84331, -4.877521]),
                   'pa_mean': ([3], [0.3, 1.666667, 1.333333]),
                   'pa_rs': ([2], [4.0, 3.0]),
                   'pa_s': ([2], [2.0, 3.0]),
                   'pa_var': ([3], [0.03, 2.222222, 0.2222222]),
                   'wb_cdf': ([3], [0.4854898, 0.7314006, 0.8581699]),
                   'wb_ent': ([3], [0.3856925, 0.7869402, 0.9793453]),
                   'wb_lp': ([3], [-0.09237111, -0.8179083, -1.101373]),
                   'wb_mean': ([3], [0.5665016, 0.9027453, 1.785959]),
                   'wb_rs': ([2], [4.0, 3.0]),
                   'wb_s': ([2], [2.0, 3.0]),
                   'wb_var': ([3], [0.5099138, 0.3756904, 0.4213316])},
 'dist_rl_more': {'gs': ([4], [1.0, 1.0, 1.0, 1.0]),
                  'icdf': ([2], [-1.281552, 1.281551]),
                  'ind_ent': ([3], [4.224172, 4.224172, 4.224172]),
                  'ind_ev': ([1], [2.0]),
                  'logits': ([4, 3], [-17.460234, 17.460234, 0.45917125]),
                  'lp_b': ([2, 4],
                           [-1.407396, -2.043536, -1.069278, -2.674161, -0.4177941, -3.062713, -0.8102208,
                            -0.3245077]),
                  'mode': ([4], [2.0, 1.0, 2.0, 2.0]),
                  'mvn_cov': ([2, 2], [1.0, 0.5, 0.5, 4.25]),
                  'mvn_ent': ([], [3.531024]),
                  'mvn_lp': ([2], [-2.851337, -3.062274]),
                  'n2': ([2, 4],
                         [-1.407396, -2.33591, -0.4177941, -1.407396, -1.407396, -2.33591, -0.4177941,
                          -1.407396]),
                  'n3': ([5], [-2.837877, -2.837877, -2.837877, -2.837877, -2.837877]),
                  'n3s': ([2], [5.0, 2.0]),
                  'nlp': ([3, 2], [-1.418939, -1.418939, -1.418939, -1.418939, -1.418939, -1.418939]),
                  'nshape': ([2], [3.0, 2.0]),
                  'perplex': ([4], [2.329267, 1.764337, 2.875507, 2.107908]),
                  'shape': ([2], [5.0, 4.0]),
                  'std': ([], [0.04]),
                  'support': ([3, 4], [12.0, 12.0, -2.4384611]),
                  'tr_lp': ([2], [-1.580165, -1.580165]),
                  'var': ([], [9.0])},
 'dist_zoo': {'bern': ([3], [-1.203973, -0.9162908, -0.1053605]),
              'bern_ent': ([3], [0.6881721, 0.6354547, 0.4750516]),
              'beta': ([1], [0.5469649]),
              'bin': ([], [-1.175385]),
              'cat_ent': ([], [0.8018185]),
              'dir': ([], [1.504077]),
              'gamma': ([3], [-1.098508, -0.5957447, -1.033605]),
              'lap': ([3], [-0.8931472, -1.393147, -2.193147]),
              'lognorm': ([3], [-0.6046457, -0.6258721, -1.406605]),
              'mean': ([], [0.5]),
              'mvn': ([], [-4.491536]),
              'oh': ([], [-0.356675]),
              'pois': ([3], [-3.0, -1.495923, -2.29443]),
              'tanh': ([], [-0.8725291]),
              'unif': ([3], [-0.6931472, -0.6931472, -0.6931472])},
 'distill': {'g': ([5, 4], [-2.1420419e-07, 1.0833088, -0.19228532]),
             'kd': ([], [0.3737943]),
             'kd2': ([], [0.02336214]),
             'kd3': ([], [2.33734])},
 'einsum_misc': {'bmm': ([2, 3, 5], [-33.054167, 47.292108, -10.029551]),
                 'ct1': ([2, 2, 7], [-12.875528, 55.968067, 0.16157126]),
                 'diag': ([4], [0.1933445, -0.1610977, -1.431407, -1.251506]),
                 'gw': ([2, 3],
                        [-0.03085998, -0.007737433, 0.04207944, -0.02646799, -0.01828134, 0.02653357]),
                 'hg': ([3], [8.97217, 1.459884, -5.761213]),
                 'hook': ([3], [8.97217, 1.459884, -5.761213]),
                 'outer': ([4, 4], [0.077373752, 5.3225049, -3.228987]),
                 'smin': ([4, 4], [4.0000002, 4.0000002, -0.31634057]),
                 'tn': ([], [4.918573]),
                 'tr': ([], [-2.650667])},
 'ema_swa': {'e2': ([2, 3], [0.06108753, -0.03272396, 0.06503172, 0.04407131, -0.1107786, 0.02837601]),
             'ema': ([2, 3], [0.05938425, -0.04126407, 0.1388492, 0.04503019, -0.1547862, 0.07267303]),
             'emao': ([4, 2],
                      [0.3744915, 0.3770601, 0.6335508, 0.3749379, 0.2247103, 0.09478405, 0.120966,
                       0.01912549]),
             'lrs': ([8], [0.075, 0.025, 0.1, 0.09330127, 0.075, 0.05, 0.025, 0.00669873]),
             'n': ([], [3.0]),
             'ps': ([2, 3], [0.08145005, -0.04363195, 0.08670896, 0.05876175, -0.1477048, 0.03783467]),
             'swa': ([2], [0.2848735, 0.2162097])},
 'embbag_pretrained': {'bag': ([2, 3], [1.644309, -2.036827, 0.7843333, -2.001998, -0.7027256, 1.948581]),
                       'cnt': ([], [2.0]),
                       'eb_f': ([2, 3], [-1.185476, 0.8114893, 0.608245, 1.118523, -0.5181941, 0.9457856]),
                       'emb': ([2, 3], [-1.094524, 0.6742299, 0.3499461, -3.02957, 0.3813004, 1.450177]),
                       'frozen': ([], [0.0]),
                       'mult': ([2, 1], [1.0, 2.0])},
 'embbag_psw_pad': {'g': ([8, 3], [19.961494, 26.474089, -2.7256399]),
                    'o': ([3, 3], [-3.1573206, 5.7518166, 1.5728064]),
                    'o2': ([3, 3], [3.6057473, 8.2564337, 1.3803172]),
                    'o3': ([3, 3], [9.4832394, 10.687126, -0.13007578])},
 'embbag_rec': {'g': ([20, 4], [0.41734788, 1.0911132, 0.29888459]),
                'loss': ([], [0.7696126]),
                'mean': ([2, 4],
                         [-0.1434149, 0.01097526, 0.03203711, 0.1786823, -0.317014, -0.1447595, -0.05051845,
                          0.1383752]),
                'mx': ([2, 4],
                       [-0.0385604, 0.4099391, 0.3912, 0.312754, -0.1632777, -0.03888409, 0.2351926,
                        0.4480293]),
                'neg_ok': ([], [1.0]),
                'o1': ([2, 4],
                       [-0.4814252, -0.6940367, 0.6805834, 0.5537025, -0.2040271, -0.04280554, 0.4689335,
                        0.8078])},
 'feature_distill': {'at': ([], [0.2558096]),
                     'fl': ([], [0.4739589]),
                     'gp': ([8, 6], [-0.90236328, 1.4261814, -0.37650581]),
                     'gs': ([6, 4], [-0.62902153, 2.6682821, -0.77483439]),
                     'kd': ([], [0.02536186])},
 'fm_recommender': {'l0': ([], [0.9332507]), 'l1': ([], [0.8949463]), 'l2': ([], [0.8578006])},
 'focal_multilabel': {'focal': ([], [0.5462635]),
                      'g': ([6, 4], [-0.18018436, 1.6671432, 0.61366373]),
                      'ml': ([], [1.0407]),
                      'mm': ([], [0.8204569])},
 'forward_ad': {'none': ([], [1.0]),
                'p': ([], [1.372864]),
                'same': ([4], [1.0, 1.0, 1.0, 1.0]),
                't': ([], [-2.444895]),
                'ty': ([3], [0.001430905, -0.3672568, 0.03532154])},
 'func_aux': {'J': ([4, 4], [-1.5082372, 6.1201782, -1.4862579]),
              'Jc0': ([4, 4], [-0.75411858, 3.0600891, -0.74312893]),
              'Jv': ([4, 4], [6.6098052, 6.784455, -0.025107978]),
              'aux': ([4], [-0.9712122, 0.8065914, -0.5453748, 0.2129786]),
              'aux2': ([], [-0.7541186]),
              'g': ([4], [0.2382161, 0.5911094, 0.8381923, 0.9770569]),
              'v': ([5], [1.679956, 3.463793, 2.605576, 2.269683, 0.8848113])},
 'func_jacrev_vmap': {'H': ([3, 3], [-3.2665492, 5.5812084, 0.27015734]),
                      'J': ([3, 3], [-1.7141964, 4.0359124, 0.59190195]),
                      'Jf': ([3, 3], [-1.7141964, 4.0359124, 0.59190195]),
                      'bj': ([4, 3, 3], [14.012425, 53.488873, 2.5167903]),
                      'g': ([4, 3], [3.6254727, 4.3558159, -0.71570103])},
 'func_more': {'J': ([3, 3], [-2.5947749, 2.7789024, -0.32798142]),
               'ga': ([3], [-0.8452302, 0.9995029, 0.9390551]),
               'gb': ([3], [-0.3073174, -0.002902492, 0.7259562]),
               'jv': ([3], [0.562667, 1.096435, 0.1210234]),
               'val': ([3], [-0.8452302, 0.9995029, 0.9390551]),
               'vjp': ([3], [0.562667, 1.096435, 0.1210234]),
               'vm': ([4], [2.038274, 1.279082, 1.265252, 0.3608625]),
               'vm2': ([5], [0.08819246, -0.215323, 0.1129697, -1.694683, 1.000322])},
 'functional_call_ensemble': {'gb': ([2], [4.715233, 3.536873]),
                              'gw': ([2, 3], [4.309992, -2.612207, 1.872016, 4.584764, -4.955177, 1.797075]),
                              'psw': ([5, 2, 3], [4.9964629, 28.792527, 2.1737275])},
 'gae': {'adv': ([12], [-6.8759594, 34.467269, -2.851076]),
         'ret': ([12], [-8.9428127, 30.413119, -1.2013974])},
 'gat_layer': {'alpha': ([9, 2], [10.0, 10.0, -0.72471787]),
               'gW': ([4, 3], [-9.5763891, 12.64918, 1.6462293]),
               'gatt': ([2, 4],
                        [0.04534794, 0.03534922, 0.0, 0.0, 0.0206837, -0.00235307, 0.03071066, -0.02093181]),
               'ir': ([5, 2], [0.64908877, 2.0926354, 0.83920601]),
               'out': ([5, 2], [-0.31265573, 1.5950798, 0.10219672])},
 'gat_softmax': {'alpha': ([6], [0.04332175, 0.01451125, 0.942167, 0.5580531, 0.4419469, 1.0]),
                 'emax': ([3], [1.562782, 1.154463, -0.4295925])},
 'gaussian_process': {'ci': ([12], [1.5658059, 55.720486, -2.9087172]),
                      'mean': ([2], [0.935608, -0.1470407]),
                      'nll0': ([], [-0.3653393]),
                      'nll1': ([], [-0.9203558]),
                      'nll2': ([], [-1.432234]),
                      'st': ([12], [1.8846634, 1.9110893, 0.12594508])},
 'gcn': {'deg': ([5], [3.0, 3.0, 3.0, 2.0, 2.0]),
         'loss0': ([], [1.125455]),
         'loss1': ([], [1.116795]),
         'loss2': ([], [1.108585]),
         'mean': ([5, 3], [-8.9329964, 9.279719, 0.73415508]),
         'mx': ([5, 3], [-6.1893728, 7.4058786, 1.314259])},
 'gmm_em': {'ll': ([], [-89.12288]),
            'lp2': ([3, 2], [-1.418744, -21.21066, -1.141688, -26.09096, -1.648282, -19.25352]),
            'mu': ([2, 2], [-1.988546, -2.011619, 1.749923, 2.062415]),
            'pi': ([2], [0.5, 0.5]),
            'var': ([2, 2], [0.5037065, 0.4730192, 0.786485, 0.5675216])},
 'gnn_graphsage': {'dropedge': ([2, 8], [29.0, 29.0, 5.7596151]),
                   'edge_score': ([8], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.8698633]),
                   'loss0': ([], [0.5261935]),
                   'loss1': ([], [0.5222993]),
                   'loss2': ([], [0.5241035]),
                   'pool': ([2, 4], [0.0, 0.5, 0.0, 0.0, 0.0, 0.2899544, 0.164431, 0.0])},
 'gnn_scatter_variants': {'adj': ([3, 3], [3.0, 3.0, -0.021344564]),
                          'amin_self': ([3, 3], [-10.498866, 10.498866, -3.4965935]),
                          'deg': ([4], [2.0, 1.0, 3.0, 0.0]),
                          'ic': ([3, 3], [2.6044104, 5.9736174, -0.33144109]),
                          'if': ([3, 3], [-11.388277, 11.388277, -2.3677976]),
                          'ir': ([3, 3], [2.7693464, 10.661623, -1.898737]),
                          'mean_self': ([3, 3], [-0.23510098, 6.8409078, -2.5052808]),
                          'norm': ([3, 3], [1.7071068, 1.7071068, -0.43976028]),
                          'prod': ([3, 3], [-3.025276, 5.5865369, 3.5900702]),
                          'scatter_mul': ([3, 3], [7.4036636, 8.4570778, -0.26950718]),
                          'scatter_val': ([3, 4], [4.5, 4.5, 2.946894])},
 'heat_equation': {'g': ([16, 16], [16.0, 16.0, -0.00038151043]),
                   'mass': ([], [8.0]),
                   'u': ([1, 1, 32], [8.0000004, 8.0000004, 0.0036000313])},
 'hessian_newton': {'hvp': ([2], [3.051405, 0.5]),
                    'vjp': ([2], [0.4139434, 1.502437]),
                    'x': ([2], [0.2069717, 0.7512185])},
 'index_put_idioms': {'m': ([3, 4], [46.0, 46.0, -21.488757]),
                      'w': ([3, 4], [4.0, 12.0, -0.69864718]),
                      'x': ([4, 5], [110.0, 110.0, 20.369139]),
                      'y': ([6], [0.0, 3.0, 0.0, 3.0, 0.0, 0.0]),
                      'z': ([3, 3], [6.0, 6.0, 1.3390185])},
 'kmeans': {'C': ([3, 2], [-0.1192248, 0.4100714, 4.933155, 4.922977, -0.03695637, 5.175421]),
            'cnt': ([3], [21.0, 20.0, 19.0]),
            'inertia': ([], [95.24056]),
            'lab': ([60], [58.0, 58.0, -0.92651334])},
 'knn_graph': {'A': ([8, 8], [32.0, 32.0, 4.2157782]),
               'An': ([8, 8], [7.8504762, 7.8504762, 1.0721117]),
               'comp': ([], [1.0]),
               'ev': ([8], [2.980232e-07, 1.564728, 3.248342, 4.000001, 4.567897, 5.0, 6.364999, 7.254034]),
               'nbr': ([8, 3], [84.0, 84.0, -1.5206061])},
 'knn_nb': {'acc': ([], [1.0]),
            'ip': ([3], [7.0, 7.0, 6.0]),
            'll': ([5, 3], [-84.539753, 84.539753, -15.706065]),
            'nd': ([5, 5], [26.081046, 26.081046, -0.18208675]),
            'oh': ([5, 3], [25.0, 25.0, 1.4619405]),
            'pred': ([5], [1.0, 1.0, 0.0, 0.0, 0.0])},
 'lbfgs_plain': {'ls': ([3], [75.875, 1.488288, 0.1965942]),
                 'n_iter': ([], [15.0]),
                 'w': ([2], [0.929853, 0.6842993])},
 'linalg_batched': {'cdist_b': ([2, 5, 2], [39.837196, 39.837196, 4.1200524]),
                    'cond': ([2], [5.309695, 1.778865]),
                    'cs_up': ([2, 3, 2], [-0.06460347, 0.74965531, 0.11758531]),
                    'det': ([2], [237.2332, 315.0829]),
                    'dist': ([], [4.153344]),
                    'evb': ([2, 3], [3.052462, 4.795183, 16.20765, 5.472785, 5.913781, 9.735345]),
                    'expm': ([2, 2], [0.7716981, 0.4265844, -0.8531688, 0.6437228]),
                    'inv': ([2, 3, 3], [1.0393568, 1.4732283, 0.031281772]),
                    'kron': ([4, 4], [-2.6, 6.6, -0.70651023]),
                    'lstsq': ([2, 3, 2], [-1.1195009, 6.5169225, -1.1150747]),
                    'mrank': ([2], [3.0, 3.0]),
                    'nrm': ([2], [3.590997, 4.537655]),
                    'pinv': ([2, 3, 5], [1.3800472, 7.3580905, 0.73805521]),
                    'qr_c': ([2, 5, 3], [17.846968, 17.846968, -0.22116315]),
                    'solve_b': ([2, 3],
                                [0.117997, -0.04752774, 0.03334891, 0.1507468, -0.05901656, 0.1626428]),
                    'svd_full': ([], [19.27972]),
                    'ts': ([2, 3, 2], [-0.16152694, 2.1039501, 0.4598917]),
                    'ts2': ([2, 3, 2], [-0.060888557, 1.6626851, 0.33437735]),
                    'ts3': ([2, 3, 2], [-0.10285614, 4.3070603, 0.76095585])},
 'linalg_grads': {'gA': ([4, 4], [1.4425212, 6.411957, -0.97842135]),
                  'gB': ([4, 4], [0.35475917, 2.6776516, 0.39631342]),
                  'gM': ([5, 3], [-3.2442565, 5.32423, -1.7108908]),
                  'gX': ([4, 2],
                         [-3.231346, -1.307546, -0.7551592, -3.640328, -3.074305, 1.117747, -1.743609,
                          -2.845649]),
                  'n1': ([5], [1.963202, 0.9246979, 0.6914834, 0.8983255, 2.602194]),
                  'ninf': ([], [3.715915]),
                  'pdist': ([6], [2.349193, 1.394274, 1.474531, 3.178065, 0.9086723, 2.293953])},
 'linalg_prog': {'L': ([5, 5], [15.590053, 19.906901, 13.990557]),
                 'S': ([3], [3.13918, 2.409511, 1.102391]),
                 'det': ([], [69309.31]),
                 'ev': ([5], [5.001962, 6.917121, 8.13638, 11.05411, 22.27258]),
                 'ev0abs': ([5], [0.06639118, 0.6958327, 0.2268134, 0.670157, 0.1041832]),
                 'inv': ([5, 5], [0.54188743, 0.90360603, 0.35670005]),
                 'mn': ([], [4.107975]),
                 'nrm': ([], [4.107975]),
                 'rec': ([8, 3], [1.1882368, 17.534332, 0.74403892]),
                 'slog': ([], [11.14633]),
                 'sol': ([3, 1], [-0.7486176, -0.5293001, 0.1031628]),
                 'vn': ([3], [4.697361, 5.232568, 7.604401]),
                 'x': ([5, 2], [0.32441134, 1.2960488, -0.54523017])},
 'logreg_lbfgs': {'l0': ([], [0.6827966]),
                  'l1': ([], [0.2984562]),
                  'w': ([1, 3], [1.779226, -2.324388, 0.4427657])},
 'losses_sci': {'bce_w': ([], [0.4968064]),
                'gnll_full': ([], [1.771774]),
                'huber': ([], [3.512416]),
                'kl_none': ([6], [0.1189603, -0.2099656, 0.02714238, 0.06419146, 0.4224954, 0.041996]),
                'logit_eps': ([3], [-13.81551, 0.0, 13.80232]),
                'pnll': ([], [0.8114483]),
                'pnll_full': ([], [1.517181]),
                'sl1': ([], [0.8250782]),
                'soft_margin': ([], [0.6200656])},
 'masked_actions': {'ent': ([4], [0.9404788, -0.0, 1.312348, 0.2574554]),
                    'ent2': ([4], [0.9404788, -0.0, 1.312348, 0.2574554]),
                    'g': ([4, 5], [-4.6566129e-09, 4.7800532, 1.0757863]),
                    'kl': ([4], [0.1755118, 2.961621, 0.0, 0.0451045]),
                    'lp': ([4], [-0.6119631, 0.0, -1.804527, -3.341747]),
                    'mode': ([4], [3.0, 0.0, 0.0, 3.0]),
                    'probs': ([4, 5], [4.0000001, 4.0000001, 0.65442158]),
                    'valid': ([], [1.0])},
 'mdn': {'mixlp': ([7], [-1.449828, -1.208156, -1.782242, -1.102379, -1.412435, -0.9991359, -2.840661]),
         'nll0': ([], [1.573263]),
         'nll1': ([], [1.557368]),
         'nll2': ([], [1.542119])},
 'mdn_multivariate': {'g': ([15, 3], [-2.1051915, 6.1962942, 1.4471828]),
                      'mean': ([6, 2], [1.3810128, 2.1067141, -0.13844112]),
                      'nll': ([], [2.833467]),
                      'ss': ([3], [2.0, 6.0, 2.0]),
                      'var': ([6, 2], [8.5818136, 8.5818136, 0.7017798])},
 'mlp_gaussian_nll': {'g': ([2, 3], [0.1953078, -0.3221045, -0.2601404, -0.02104544, 0.1279487, 0.0773782]),
                      'l': ([], [0.511098]),
                      'l2': ([], [1.430037]),
                      'l3': ([], [2.867682])},
 'module_reprs': {'m0': 'Sequential(\n'
                        '  (0): Linear(in_features=2, out_features=3, bias=True)\n'
                        '  (1): ReLU()\n'
                        '  (2): Dropout(p=0.1, inplace=False)\n'
                        ')',
                  'm1': 'Conv2d(3, 8, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), bias=False)',
                  'm10': 'MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)',
                  'm11': 'AdaptiveAvgPool2d(output_size=(1, 1))',
                  'm12': 'SiLU()',
                  'm13': 'LeakyReLU(negative_slope=0.2)',
                  'm14': 'Softplus(beta=1.0, threshold=20.0)',
                  'm15': 'ModuleList(\n  (0): Tanh()\n)',
                  'm16': 'MultiheadAttention(\n'
                         '  (out_proj): NonDynamicallyQuantizableLinear(in_features=8, out_features=8, '
                         'bias=True)\n'
                         ')',
                  'm17': 'TransformerEncoderLayer(\n'
                         '  (self_attn): MultiheadAttention(\n'
                         '    (out_proj): NonDynamicallyQuantizableLinear(in_features=8, out_features=8, '
                         'bias=True)\n'
                         '  )\n'
                         '  (linear1): Linear(in_features=8, out_features=16, bias=True)\n'
                         '  (dropout): Dropout(p=0.1, inplace=False)\n'
                         '  (linear2): Linear(in_features=16, out_features=8, bias=True)\n'
                         '  (norm1): LayerNorm((8,), eps=1e-05, elementwise_affine=True, bias=True)\n'
                         '  (norm2): LayerNorm((8,), eps=1e-05, elementwise_affine=True, bias=True)\n'
                         '  (dropout1): Dropout(p=0.1, inplace=False)\n'
                         '  (dropout2): Dropout(p=0.1, inplace=False)\n'
                         ')',
                  'm2': 'LSTM(4, 8, num_layers=2, batch_first=True)',
                  'm3': 'Embedding(10, 4, padding_idx=0)',
                  'm4': 'GroupNorm(4, 8, eps=1e-05, affine=True, bias=True)',
                  'm5': 'BatchNorm1d(5, eps=1e-05, momentum=0.1, affine=True, bias=True, '
                        'track_running_stats=True)',
                  'm6': 'LayerNorm((6,), eps=1e-05, elementwise_affine=True, bias=True)',
                  'm7': 'GRU(3, 5)',
                  'm8': "EmbeddingBag(10, 3, mode='sum')",
                  'm9': 'Conv1d(2, 4, kernel_size=(3,), stride=(1,), dilation=(2,))'},
 'nerf': {'bucket': ([8], [0.0, 3.0, 5.0, 7.0, 10.0, 12.0, 14.0, 16.0]),
          'enc': ([5, 27], [22.095071, 87.972674, -0.79917072]),
          'inds': ([5, 8], [323.0, 323.0, 28.501178]),
          'samples': ([5, 8], [18.583875, 18.583875, 1.6125419]),
          'w': ([5, 16], [1.9869102, 1.9869102, 0.16860371])},
 'nerf_grads': {'acc': ([3], [0.6015481, 0.2739423, 0.3448452]),
                'col': ([3, 3], [1.7362975, 1.7362975, 0.48038315]),
                'gc': ([4], [1.0, 9.0, 0.0, 0.0]),
                'gs': ([3, 8], [5.3358131, 5.3358131, -0.33504946])},
 'neural_ode_euler': {'loss0': ([], [2.476247]), 'loss1': ([], [1.826013])},
 'numerics': {'allclose': ([], [1.0]),
              'aminmax': ([], [-1.883322]),
              'clamp_': ([4, 7], [2.1317508, 11.674661, 0.17042453]),
              'clampt': ([4, 7], [-9.259397, 9.259397, 1.0273169]),
              'cmi': ([4, 7], [42.0, 42.0, 12.516673]),
              'cummax': ([4, 7], [25.538331, 25.722792, 4.4978752]),
              'diff': ([4, 6], [-4.0090528, 21.564887, -1.2298863]),
              'hist': ([4], [5.0, 5.0, 9.0, 9.0]),
              'histc': ([5], [3.0, 6.0, 7.0, 6.0, 6.0]),
              'isclose': ([4, 7], [0.0, 0.0, 0.0]),
              'isfinite': ([5], [1.0, 0.0, 0.0, 0.0, 1.0]),
              'isinf': ([5], [0.0, 0.0, 1.0, 1.0, 0.0]),
              'kth': ([4], [0.1377988, -0.5112541, -1.42817, -0.4410155]),
              'med': ([], [0.1754785]),
              'medd': ([7],
                       [0.1754785, -0.4766293, -0.4410155, 0.8730139, 0.4498369, -0.5344003, -0.5112541]),
              'mode': ([], [3.0]),
              'msort': ([4, 7], [3.9886863, 22.50748, 0.17910498]),
              'n2n2': ([5], [1.0, 0.0, 1000.0, -1000.0, 2.0]),
              'nan_to_num': ([5], [1.0, 0.0, 3.402823e+38, -3.402823e+38, 2.0]),
              'nanmean': ([], [1.0]),
              'nanq': ([], [1.5]),
              'nansum': ([], [nan]),
              'q': ([3, 4], [2.2989293, 9.9407229, -0.9025076]),
              'q2': ([], [-0.4410155]),
              'std0': ([], [0.9450738]),
              'std1': ([4], [0.8479121, 0.738193, 0.7649347, 0.9019985]),
              'svm': ([7], [0.6786209, 0.723881, 1.337555, 1.300313, 0.4548244, 1.139013, 0.6744829]),
              'topk_i': ([4, 3], [34.0, 34.0, -2.0148795]),
              'topk_v': ([4, 3], [10.619183, 11.265317, -1.7054452]),
              'var': ([7], [0.4605263, 0.5240037, 1.789054, 1.690813, 0.2068652, 1.297351, 0.4549271]),
              'varc2': ([4], [1.006537, 0.7629005, 0.8191751, 1.139042]),
              'vm': ([], [0.1424531])},
 'numerics2': {'all': ([], [1.0]),
               'any': ([3], [0.0, 0.0, 0.0]),
               'argsort': ([3, 5], [30.0, 30.0, -1.9815614]),
               'clip': ([3, 5], [-0.83668273, 8.5603093, 0.84220934]),
               'count': ([3], [3.0, 4.0, 2.0]),
               'cumsum': ([3, 5], [2.4360292, 16.296761, -2.2689876]),
               'eq': ([], [1.0]),
               'logaddexp': ([5], [0.8907821, 1.058033, 2.068526, -0.03891659, 0.5976233]),
               'rem': ([3, 5], [14.455207, 14.455207, 1.8209695]),
               'sgn': ([3, 5], [3.0, 15.0, 1.5418353]),
               'signbit': ([3, 5], [6.0, 6.0, -0.033409713]),
               'trunc': ([3, 5], [0.0, 26.0, 2.7109665]),
               'ucons': ([4], [1.0, 2.0, 3.0, 1.0]),
               'uniq': ([3], [2.0, 1.0, 2.0]),
               'where': ([3, 5], [5.718307, 5.718307, 1.8026457])},
 'numerics3': {'ac': ([], [1.0]),
               'amax_nan': ([5], [nan, 2.182735, 1.81494, 1.715779, 1.573206]),
               'argmax_nan': ([], [0.0]),
               'clamp_nan': ([6], [nan, 0.5602005, -0.6224567, -0.009815045, 0.0005379318, 0.05742744]),
               'fmax': ([6], [2.182735, 0.5602005, -0.2918415, -0.009815045, 1.036008, 0.05742744]),
               'fmin': ([6], [2.182735, -0.2838466, -0.6224567, -0.4580868, 0.0005379318, -0.4128552]),
               'hist_vals': ([3], [6.0, 9.0, 7.0]),
               'iscl': ([2], [1.0, 1.0]),
               'isnan_any': ([], [1.0]),
               'kth_nan': ([], [nan]),
               'logsumexp_inf': ([], [-inf]),
               'maximum': ([6], [nan, 0.5602005, -0.2918415, -0.009815045, 1.036008, 0.05742744]),
               'maxnan': ([], [nan]),
               'med_nan': ([], [nan]),
               'nan_to_num_d': ([5, 6], [1.7014117e+39, 9.8681881e+39, 1.632444e+39]),
               'nanmean_d': ([5], [-0.002821185, 0.2953523, 0.4452677, 0.4068508, 0.6432849]),
               'nansum_d': ([6], [4.436245, 1.479216, 2.474773, -0.2167474, 0.8254797, 1.731462]),
               'q_nan': ([], [nan]),
               'sgnz': ([3], [0.0, 0.0, -1.0]),
               'sortnan': ([6], [-0.6224567, -0.009815045, 0.0005379318, 0.05742744, 0.5602005, nan]),
               'std1': ([], [nan]),
               'topk_nan': ([2], [nan, 0.5602005]),
               'var_corr': ([5], [0.1617657, 0.9767137, 0.7490092, 0.6071461, 1.113133])},
 'numerics_int': {'abs': ([2, 4], [3.0, 7.0, 2.0, 2.0, 5.0, 5.0, 1.0, 0.0]),
                  'amax': ([4], [5.0, 5.0, 2.0, 2.0]),
                  'bucket': ([2, 4], [1.0, 0.0, 1.0, 1.0, 2.0, 2.0, 0.0, 0.0]),
                  'clamp': ([2, 4], [3.0, -2.0, 2.0, 2.0, 4.0, 4.0, -1.0, 0.0]),
                  'cummax': ([2, 4], [3.0, 3.0, 3.0, 3.0, 5.0, 5.0, 5.0, 5.0]),
                  'divfloor': ([2, 4], [1.0, -3.0, 0.0, 0.0, 1.0, 1.0, -1.0, 0.0]),
                  'divtrunc': ([2, 4], [1.0, -2.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0]),
                  'floordiv': ([2, 4], [1.0, -3.0, 0.0, 0.0, 1.0, 1.0, -1.0, 0.0]),
                  'fmod': ([2, 4], [0.0, -1.0, 2.0, 2.0, 2.0, 2.0, -1.0, 0.0]),
                  'isclose': ([2, 4], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]),
                  'kth': ([2], [2.0, 0.0]),
                  'mean_f': ([2], [0.0, 2.25]),
                  'median': ([], [2.0]),
                  'mode': ([2], [2.0, 5.0]),
                  'n2n': ([2, 4], [3.0, -7.0, 2.0, 2.0, 5.0, 5.0, -1.0, 0.0]),
                  'neg_pow': ([1], [0.5]),
                  'pow': ([2, 4], [9.0, 49.0, 4.0, 4.0, 25.0, 25.0, 1.0, 0.0]),
                  'prod': ([2], [-84.0, 0.0]),
                  'raised': ([3], [1.0, 1.0, 1.0]),
                  'rem': ([2, 4], [0.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 0.0]),
                  'round': ([6], [-2.0, -2.0, -0.0, 0.0, 2.0, 2.0]),
                  'sign': ([2, 4], [1.0, -1.0, 1.0, 1.0, 1.0, 1.0, -1.0, 0.0]),
                  'sum_dtype': ([], [1.0]),
                  'topk': ([2, 2], [3.0, 2.0, 5.0, 5.0]),
                  'true_div': ([2, 4], [1.5, -3.5, 1.0, 1.0, 2.5, 2.5, -0.5, 0.0]),
                  'u0': ([4], [1.0, 2.0, 3.0, 5.0]),
                  'u1': ([6], [2.0, 0.0, 1.0, 2.0, 0.0, 3.0]),
                  'u2': ([4], [2.0, 1.0, 2.0, 1.0]),
                  'ud0': ([2, 2], [1.0, 2.0, 3.0, 4.0]),
                  'ud1': ([3], [0.0, 1.0, 0.0])},
 'ode_adaptive': {'n': ([], [44.0]), 't': ([], [2.018153]), 'y': ([2], [-0.245524, -0.821869])},
 'ode_rk4': {'energy': ([2], [0.7966002, 0.41486]),
             'tz': ([], [-0.666371]),
             'y': ([2, 2], [0.1787829, 0.7491164, -0.2851667, 0.5014056])},
 'onecycle_sched': {'lrs': ([10], [2.2847677, 2.2847677, -0.12758172]),
                    'mom': ([], [0.9450484]),
                    'w': ([1, 2], [0.4147948, 0.2695505])},
 'optim_zoo': {'adadelta': ([1, 3], [0.0573453, -0.02138503, 0.2117697]),
               'adagrad': ([1, 3], [0.3288366, 0.08617491, 0.4798274]),
               'adamax': ([1, 3], [0.2959352, 0.07664567, 0.4510792]),
               'adamw_ams': ([1, 3], [0.3272772, 0.07468166, 0.4794065]),
               'asgd': ([1, 3], [0.1770586, -0.01310233, 0.3454079]),
               'nadam': ([1, 3], [0.2552408, 0.0690994, 0.4090941]),
               'radam': ([1, 3], [0.1649071, -0.01703237, 0.3312469]),
               'rms_c': ([1, 3], [0.8040641, 0.2728241, 0.9319282]),
               'rprop': ([1, 3], [0.5342151, 0.05536854, 0.6886228]),
               'sgd_d': ([1, 3], [0.3998941, 0.0366133, 0.5832643])},
 'patches_ts': {'diff': ([3, 18], [4.3901687, 97.48807, 7.5404146]),
                'ema': ([3, 20], [11.878928, 18.84312, 0.13573701]),
                'eq': ([], [1.0]),
                'h': ([4, 3, 4], [-2.0444972, 13.12624, 0.052563686]),
                'ma': ([3, 16], [-3.3625065, 19.414775, 1.7262867]),
                'o': ([3, 8], [-0.20639182, 4.5378475, 0.033846446]),
                'p': ([2, 48, 4], [4.8959643, 310.74228, 13.33158]),
                'p2': ([2, 3, 4, 16], [4.8959643, 310.74228, 5.5479595]),
                'pad': ([3, 5, 2], [-9.7226472, 26.971027, 2.1458737]),
                'roll': ([3, 20], [-1.5242029, 43.599703, 2.1027553]),
                'wmean': ([3, 16], [-3.3625064, 19.414774, 1.7262866])},
 'pca_svd': {'S': ([4], [14.83419, 10.75619, 7.306498, 4.334073]),
             'cc': ([4, 4], [1.955507, 8.3101439, -1.0047208]),
             'cov': ([4, 4], [8.0089027, 29.001749, -2.5819007]),
             'pl': ([4], [14.83419, 10.75619, 7.306497, 4.334071]),
             'projabs': ([30, 2], [109.59116, 109.59116, 7.2895842]),
             'ratio': ([4], [0.5394548, 0.2836246, 0.1308717, 0.04604893]),
             'svl': ([4], [14.83419, 10.75619, 7.306497, 4.334073]),
             'svlv': ([30, 4], [17.346016, 17.346016, 0.63179075])},
 'pinn': {'loss0': ([], [56.90213]), 'loss1': ([], [51.85343]), 'loss2': ([], [47.13363])},
 'polyfit_adam': {'coef': ([4], [0.1773623, -0.5158953, 0.005706426, -0.3641475]),
                  'loss': ([], [0.02383064]),
                  'ls': ([4], [0.2, -1.0, 3.954664e-08, 0.4999999]),
                  'pv': ([4], [0.2, -0.9999999, -1.490116e-08, 0.4999998])},
 'ppo_clip': {'kl': ([], [0.0004396538]),
              'l0': ([], [0.2023394]),
              'l1': ([], [0.1966273]),
              'l2': ([], [0.1909647]),
              'l3': ([], [0.1853526])},
 'ppo_minibatch': {'cf': ([], [0.0]),
                   'ev': ([], [-0.02359569]),
                   'l': ([2], [-0.01837875, -0.01895563]),
                   'ls': ([2], [-0.4979987, -0.4982617])},
 'printing': {'eps': ([], [1.192093e-07]),
              'imax': ([], [2147484000.0]),
              's1': 'tensor([ 1.0000,  2.5000, -3.2500])',
              's10': 'tensor([nan, inf, 1.])',
              's11': 'tensor(1.)',
              's12': 'tensor([1.2346e+05, 1.0000e-03])',
              's2': 'tensor([[1, 2],\n        [3, 4]])',
              's3': 'tensor(0.5000)',
              's4': 'tensor([1.0000e-05, 1.0000e+05])',
              's5': 'tensor([ True, False])',
              's6': '3.142',
              's9': 'tensor([2., 4.], grad_fn=<X>)',
              'tiny': ([], [65504.0])},
 'printing2': {'f1': 'loss 0.1235',
               'f10': 'tensor([  1,  -2, 300])',
               'f11': 'tensor([[[1., 1.]],\n\n        [[1., 1.]]])',
               'f12': 'tensor([])',
               'f13': 'tensor([-1.1518,  1.7764], requires_grad=True)',
               'f15': '2.5',
               'f16': '3',
               'f17': 'True',
               'f18': '7',
               'f2': '0.123',
               'f3': '0.123',
               'f4': '[1.5, 2.25]',
               'f5': '[[1, 2]]',
               'f6': 'tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n'
                     '        1.9990e+03])',
               'f7': 'tensor([[-1.1761,  1.7999, -1.1815,  2.4726],\n'
                     '        [-1.6690,  0.4317, -0.8547, -1.3900],\n'
                     '        [-0.8436, -2.7860,  1.1934,  0.4980]])',
               'f8': 'tensor([1.0000e-08, 1.0000e+00, 1.0000e+08])',
               'f9': 'tensor([[1.0000e-01, 2.0000e+02],\n        [3.0000e+00, 4.0000e+00]])',
               'p2': 'tensor([1.23, 2.00])',
               'p3': 'tensor([1.2346, 2.0000])',
               'p4': 'tensor([0.0000, 1.0000])'},
 'qlearning_tabular': {'Q': ([5, 2], [6.6141609, 6.6141609, -0.81730215]),
                       'pol': ([5], [1.0, 1.0, 0.0, 1.0, 0.0])},
 'realnvp': {'loss0': ([], [2.8493]), 'loss1': ([], [2.797086]), 'loss2': ([], [2.750899])},
 'rec_bpr': {'bag': ([3, 4], [-1.2713282, 2.5919739, -0.09136847]),
             'l0': ([], [0.7314107]),
             'l1': ([], [0.6115223]),
             'l2': ([], [0.518984]),
             'rank': ([6], [1.0, 2.0, 2.0, 6.0, 1.0, 2.0]),
             'top': ([6, 3], [57.0, 57.0, -6.3489893])},
 'reinforce': {'loss0': ([], [1.168918]),
               'loss1': ([], [0.6796385]),
               'loss2': ([], [0.1713608]),
               'probs': ([8, 3], [7.9999999, 7.9999999, -0.25486668]),
               'sample_ok': ([], [1.0])},
 'replay_dqn': {'greedy': ([5], [1.0, 1.0, 1.0, 1.0, 1.0]),
                'loss0': ([], [1.419892]),
                'loss1': ([], [0.6889572]),
                'loss2': ([], [0.1618106]),
                'tq': ([16, 4], [1.3206743, 14.26469, 0.9309364])},
 'rl_init_utils': {'batch': ([6], [0.0, 0.0, 1.0, 1.0, 1.0, 2.0]),
                   'gains': ([5], [1.414214, 1.666667, 1.0, 1.0, 1.38675]),
                   'orth': ([4, 4], [8.0000001, 8.0000005, -0.63019529]),
                   'pooled': ([3], [0.7758994, -0.2223766, -0.01851445]),
                   'rep': ([3, 2], [1.0, 2.0, 3.0, 4.0, 3.0, 4.0])},
 'rl_vec_env': {'g': ([3, 2], [0.07057025, 0.08709626, -0.06867644, -0.06096517, -0.001893827, -0.0261311]),
                'loss': ([], [-4.46463]),
                'total': ([6], [-1.2, -0.5, -0.7, -1.2, -0.5, -0.7])},
 'sac_tanh': {'ag': ([1], [2.843988]),
              'g': ([4, 3], [0.74796433, 4.3863586, -0.20444605]),
              'huber': ([], [0.1253072]),
              'lp': ([5, 1], [-0.3120816, -1.41351, 0.4873158, -1.710183, -1.271482]),
              'lp2': ([5], [-0.3120776, -1.413508, 0.4873327, -1.71018, -1.271479]),
              'pl': ([], [-0.4519219]),
              'q2': ([1, 5], [0.3133774, 0.5300205, -0.759662, -0.04019385, 0.3001332])},
 'sci_autograd2': {'J': ([3, 3], [2.123973, 2.123973, 0.43973761]),
                   'd': ([4], [1.0, 3.0, 5.0, 7.0]),
                   'g1': ([9], [18.0, 18.0, 2.9944274]),
                   'g2': ([4, 5], [-2.4665274, 17.617336, 5.2630015]),
                   'g30': ([6, 3], [-33.729416, 47.812725, -3.0254239]),
                   'g31': ([6, 3], [0.96875919, 9.8931159, 0.99777073]),
                   'g4': ([9], [23.972219, 23.972219, 4.3097726])},
 'search_idx': {'bucket_r': ([2, 3], [0.0, 2.0, 3.0, 3.0, 4.0, 4.0]),
                'clampt': ([3, 4], [2.0954581, 2.0954581, 0.090129349]),
                'cs_d': ([3], [1.0, 3.0, 6.0]),
                'lcs': ([3, 4], [10.988048, 12.054757, -1.9973796]),
                'lerp': ([3, 4], [-2.2207356, 5.1543768, 1.5270765]),
                'lsm': ([3, 4], [-19.48613, 19.48613, 2.7368798]),
                'maxk': ([3, 1], [0.4815086, 0.3649905, 0.8187401]),
                'ms': ([3, 4], [10.0, 10.0, -0.04372745]),
                'ne': ([2], [3.5, 3.5]),
                'put': ([3, 4], [14.593663, 23.597253, 14.050223]),
                'sorter': ([1], [2.0]),
                'ss_l': ([2, 3], [0.0, 1.0, 3.0, 2.0, 3.0, 4.0]),
                'ss_r': ([2, 3], [0.0, 2.0, 3.0, 3.0, 4.0, 4.0]),
                'take': ([2, 2], [-0.5333543, -0.5472071, -0.2327884, -0.5161909]),
                'triu': ([2, 6], [18.0, 18.0, -3.3710351]),
                'unf': ([3, 2], [0.0, 1.0, 3.0, 4.0, 6.0, 7.0]),
                'wh': ([3, 4], [5.5954581, 5.5954581, -0.15583871])},
 'sinkhorn': {'P': ([5, 4], [0.99999994, 0.99999994, 0.029627271]), 'cost': ([], [1.681425])},
 'skipgram_sparse': {'E': ([10, 4], [-0.75481386, 7.9557135, 1.4093035]),
                     'loss0': ([], [2.032163]),
                     'loss1': ([], [1.917032]),
                     'loss2': ([], [1.803797])},
 'special_fns': {'digamma': ([4], [-3.502524, -0.2890402, 0.7031568, 1.256118]),
                 'ent': ([4], [0.1688046, 0.3425079, 0.3465736, 0.1785148]),
                 'erfcx': ([4], [0.7345993, 0.3785375, 0.2108064, 0.1369995]),
                 'expit': ([4], [0.5744425, 0.7685248, 0.9241418, 0.9820138]),
                 'gammainc': ([4], [0.7269574, 0.6209179, 0.5841197, 0.5665299]),
                 'gammaln': ([4], [1.095798, -0.0853741, 0.2846829, 1.791759]),
                 'i0': ([4], [1.022627, 1.393726, 3.28984, 11.30192]),
                 'lgamma': ([4], [1.095798, -0.0853741, 0.2846829, 1.791759]),
                 'log_ndtr': ([4], [-0.9621028, -2.162217, -5.081648, -10.3601]),
                 'logit': ([4], [-2.751535, -1.152679, 0.0, 1.386294]),
                 'lse': ([], [4.269007]),
                 'mvlg': ([4], [0.6554705, 1.89259, 4.817861, 9.317671]),
                 'ndtr': ([4], [0.6179114, 0.8849304, 0.9937903, 0.9999683]),
                 'ndtri': ([4], [-1.554774, -0.7063026, 0.0, 0.8416212]),
                 'poly': ([4], [12.24536, 1.267377, 0.4903578, 0.283823]),
                 'sinc': ([4], [0.8583937, -0.1559149, 0.127324, 2.782753e-08]),
                 'softmax': ([4], [0.01889219, 0.0464673, 0.1705023, 0.7641382]),
                 'xlog1py': ([4], [0.07870928, 0.9461489, 3.131907, 6.437752]),
                 'xlogy': ([4], [-0.3611919, 0.2187859, 2.290727, 5.545177]),
                 'zeta': ([4], [3.93195, 1.490543, 1.126734, 1.036928])},
 'stats_misc': {'cov_w': ([5, 5], [1.968114, 6.0818923, 3.0347037]),
                'hc': ([4], [8.0, 10.0, 9.0, 3.0]),
                'kth_k': ([1, 5], [0.2584258, -0.5640956, -1.229917, 0.4834288, -0.3735724]),
                'mad': ([], [0.7541406]),
                'mean_int': ([], [4.5]),
                'med_i': ([6], [1.0, 3.0, 1.0, 3.0, 4.0, 4.0]),
                'minmax_norm': ([6, 5], [14.504085, 14.504085, -3.7394256]),
                'nanmed': ([], [2.0]),
                'nanstd': ([], [1.527525]),
                'qhigh': ([6], [0.6332536, -0.004009469, -0.7037184, 0.7698206, 0.6469807, 0.5745069]),
                'qk': ([1, 5], [-0.3272867, -0.846224, -1.290221, -0.1041, -0.4282814]),
                'qlin': ([2], [-0.9509037, 0.7084007]),
                'qlow': ([6], [-0.1796338, -0.299943, -0.9402668, 0.4834288, -0.1760285, 0.3911406]),
                'renorm': ([6, 5], [-0.57888338, 11.543327, -3.9533241]),
                'round2': ([6, 5], [-1.68, 21.48, -7.4692115]),
                'std_t': ([], [0.8591571]),
                'topk_s': ([4], [1.819531, 1.349349, 1.238136, 0.8878405]),
                'var_k': ([6, 1], [0.9171647, 0.5448797, 0.2824524, 0.247362, 0.5884955, 0.9937788]),
                'zscore': ([6, 5], [1.4156103e-07, 23.705705, -8.5139292])},
 'supcon': {'bd': ([3, 3], [5.0, 5.0, -0.24883385]),
            'ce': ([8],
                   [25000010.0, 25000000.0, 25000010.0, 25000000.0, 25000010.0, 25000010.0, 25000000.0,
                    25000000.0]),
            'ce_w': ([], [15909100.0]),
            'loss': ([8], [12.67989, 2.247845, 11.87368, 3.534862, 6.429152, 10.37647, 2.399252, 4.648324])},
 'svm_ridge': {'acc': ([], [1.0]),
               'b': ([1], [-0.03000001]),
               'l': ([], [0.3722807]),
               'w': ([4], [0.6216384, -0.3396655, -0.2915889, -0.1879231]),
               'wc': ([4], [0.6274791, -0.4489474, -0.2062687, -0.07195969]),
               'wr': ([4], [0.6274791, -0.4489473, -0.2062687, -0.0719597])},
 'tcn': {'l0': ([], [1.039481]),
         'l1': ([], [0.9991781]),
         'l2': ([], [0.9608319]),
         'names': 'c1.bias c1.parametrizations.weight.original0 c1.parametrizations.weight.original1 c2.bias '
                  'c2.weight out.bias out.weight'},
 'tensor_algebra': {'addmm': ([3, 2], [1.171185, 1.615454, 5.891306, 5.511219, -0.2451546, -0.3160656]),
                    'argwhere': ([3, 2], [0.0, 2.0, 1.0, 1.0, 1.0, 3.0]),
                    'baddbmm': ([2, 3, 2], [4.295639, 6.4539995, -4.647746]),
                    'block': ([3, 4], [2.1234445, 3.8233259, -0.77311945]),
                    'cart': ([6, 2], [33.0, 33.0, -2.4000309]),
                    'cdist1': ([3, 3], [28.284405, 28.284405, 6.039884]),
                    'chain': ([3, 4], [3.6229788, 7.4218993, -1.6264693]),
                    'comb': ([6, 2], [18.0, 18.0, -2.6644781]),
                    'cross': ([3, 3], [-6.4176751, 9.0565083, -1.6986806]),
                    'ctr': ([3, 3], [7.8503158, 10.804526, -2.7340905]),
                    'diag_embed': ([4, 4], [2.1403822, 3.8402636, -2.9277766]),
                    'evh': ([3], [0.4919305, 4.552913, 9.523198]),
                    'he': ([4], [0.1253515, 0.5794656, 1.03358, 1.487694]),
                    'hist2': ([2, 2], [2.0, 0.0, 0.0, 1.0]),
                    'hist3': ([3, 3], [2.3332641, 2.3332641, 1.260668]),
                    'kron': ([4, 4], [4.9043792, 11.166639, -0.17245966]),
                    'lu_solve': ([3, 2],
                                 [0.06621556, 0.08628997, 0.3399015, 0.2804698, 0.0446335, 0.1032327]),
                    'mg': ([2, 2, 3], [9.0, 9.0, -2.1240867]),
                    'mp': ([3, 3], [4.7344409, 14.220065, 4.3749695]),
                    'outer': ([4, 4], [1.8459632, 12.415662, -2.6775875]),
                    'qr': ([3, 3], [8.6517935, 8.6517935, 1.4202214]),
                    'tensordot': ([3, 2],
                                  [-0.5395901, 0.3451033, 0.08929801, 1.599674, 0.6365552, 0.01677936]),
                    'trace': ([], [1.181974]),
                    'tri': ([2, 6], [12.0, 12.0, -3.5715126]),
                    'vecdot': ([3], [4.799957, 7.213864, 2.554219])},
 'timeseries': {'loss0': ([], [0.7058622]),
                'loss1': ([], [0.7037674]),
                'loss2': ([], [0.7017952]),
                'win': ([26, 10], [9.8173523, 177.94402, -1.9859364])},
 'triplet_metric': {'g': ([3, 5], [-4.7865266, 9.2421403, 4.0991405]),
                    'l': ([], [0.6487533]),
                    'l2': ([], [0.8426586]),
                    'l3': ([], [0.2083539]),
                    'l4': ([], [0.7318644])},
 'trpo_cg': {'step': ([8],
                      [0.1598836, 0.0241147, -0.2167721, -0.1598839, -0.02411452, 0.2167722, 0.07904718,
                       -0.07904707]),
             'vec': ([8],
                     [0.03771907, -0.03963146, 0.1921268, 0.03147003, -0.1607008, 0.1084785, 0.3912,
                      0.2841243]),
             'w': ([2, 3], [0.0393179, -0.03939031, 0.1899591, 0.0298712, -0.160942, 0.1106462])},
 'ts_decompose': {'c': ([1, 4, 6], [-3.6708109, 11.006462, -4.0382004]),
                  'h': ([1, 4, 2],
                        [-0.1896488, 0.1827866, -0.2055679, 0.2393053, -0.2135338, 0.3016196, -0.2171973,
                         0.3383783]),
                  'o': ([4, 12, 2], [4.1298598, 22.429893, -0.081068239]),
                  'o2': ([4, 3], [0.0, 0.0, 0.0]),
                  'pad': ([4, 12, 2], [2.4400926, 13.604286, -0.088323026]),
                  'ph': ([1, 4, 2],
                         [-0.1896488, 0.1827866, -0.2077955, 0.2323084, -0.2148716, 0.3261609, -0.1694618,
                          0.346849]),
                  'plen': ([4], [12.0, 9.0, 7.0, 3.0]),
                  'seas': ([48], [-0.062208444, 28.052193, -2.5999109]),
                  'trend': ([48], [57.028761, 57.028761, -0.37047492])},
 'vae': {'kl': ([], [1.16948]),
         'loss0': ([], [22.45679]),
         'loss1': ([], [22.25964]),
         'loss2': ([], [22.088])},
 'vmap_ensemble': {'psb': ([5, 2], [2.0654051, 5.4790699, 1.9977483]),
                   'psg': ([5, 2, 3], [2.7710405, 13.094534, -0.68268956]),
                   'y': ([4, 5, 2], [2.3884829, 16.761504, -3.4999637]),
                   'ys': ([4, 5, 2], [2.3884829, 16.761504, -3.4999637])},
 'wgan_gp': {'g0': ([8, 3], [-6.5925545, 13.569057, 2.6832496]),
             'gp': ([], [0.6683729]),
             'loss': ([], [6.752767]),
             'unused': ([], [1.0])}}


def _numpy(value):
    if isinstance(value, (list, tuple)):
        return [_numpy(v) for v in value]
    return value.detach().numpy() if isinstance(value, mf.Tensor) else np.asarray(value)


def _check(got, expected, where):
    if isinstance(expected, str):
        assert str(got) == expected, where
        return
    shape, numbers = expected
    a = np.asarray(got, dtype=np.float64)
    assert list(a.shape) == shape, f"{where}: shape {list(a.shape)}, torch's {shape}"
    if a.size <= 8:
        np.testing.assert_allclose(a.ravel(), numbers, rtol=2e-4, atol=2e-5, equal_nan=True, err_msg=where)
        return
    f = np.where(np.isfinite(a.ravel()), a.ravel(), 0)
    got = [f.sum(), np.abs(f).sum(), (f * np.cos(np.arange(f.size))).sum()]
    scale = numbers[1]
    np.testing.assert_allclose(got, numbers, rtol=0, atol=2e-4 * scale + 2e-5, err_msg=where)


def check_program(progs, expected, name):
    """progs[name] run on meshflow gives each output torch gave (expected[name])."""
    outs = progs[name](mf, nn, F)
    assert sorted(outs) == sorted(expected[name])
    for key, value in expected[name].items():
        _check(_numpy(outs[key]), value, f"{name}: {key}")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_program_gives_torch_s_outputs(name):
    check_program(PROGS, EXPECTED, name)


# ---- the fixes this round needed, each against NumPy


def test_distribution_expand_keeps_the_family_with_a_larger_batch():
    D = mf.distributions
    n = D.Normal(mf.tensor([0.0, 1.0]), mf.tensor([1.0, 2.0])).expand([3, 2])
    assert isinstance(n, D.Normal) and tuple(n.batch_shape) == (3, 2) and tuple(n.sample().shape) == (3, 2)
    np.testing.assert_allclose(n.log_prob(mf.zeros(3, 2)).numpy()[2],
                               [-0.5 * math.log(2 * math.pi), -0.125 - math.log(2) - 0.5 * math.log(2 * math.pi)],
                               rtol=1e-6)
    mvn = D.MultivariateNormal(mf.zeros(2), scale_tril=mf.eye(2)).expand((4,))
    assert tuple(mvn.batch_shape) == (4,) and tuple(mvn.event_shape) == (2,)
    ind = D.Independent(D.Normal(mf.zeros(2), mf.ones(2)), 1).expand([5])
    assert tuple(ind.batch_shape) == (5,) and tuple(ind.rsample().shape) == (5, 2)
    with pytest.raises(Exception, match="cannot be expanded"):
        D.Normal(mf.zeros(2), mf.ones(2)).expand([3])


def test_categorical_log_prob_broadcasts_the_value_against_the_batch():
    logits = arr(1, 4, 3)
    c = mf.distributions.Categorical(logits=mf.tensor(logits))
    lp = c.log_prob(mf.tensor([[0], [2]])).numpy()
    log_probs = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    np.testing.assert_allclose(lp, np.stack([log_probs[:, 0], log_probs[:, 2]]), rtol=1e-5, atol=1e-6)


def test_svd_and_pca_lowrank_at_full_rank_are_the_svd():
    A = arr(2, 7, 4) @ arr(3, 4, 4)
    for M in (A, A.T):  # tall, and wide (the transposed problem)
        U, S, V = mf.svd_lowrank(mf.tensor(M), q=4)
        np.testing.assert_allclose(S.numpy(), np.linalg.svd(M, compute_uv=False), rtol=1e-4)
        np.testing.assert_allclose((U @ mf.diag(S) @ V.T).numpy(), M, atol=1e-4)
    _, S, _ = mf.pca_lowrank(mf.tensor(A))
    np.testing.assert_allclose(S.numpy(), np.linalg.svd(A - A.mean(0), compute_uv=False), rtol=1e-4)


def test_histogramdd_counts_as_numpy():
    points = arr(4, 30, 2)
    hist, edges = mf.histogramdd(mf.tensor(points), bins=[3, 2], range=[-1.0, 1.0, -2.0, 2.0])
    ref, ref_edges = np.histogramdd(points, bins=[3, 2], range=[(-1, 1), (-2, 2)])
    np.testing.assert_array_equal(hist.numpy(), ref)
    np.testing.assert_allclose(edges[0].numpy(), ref_edges[0], rtol=1e-6)
    given = [mf.tensor([-3.0, 0.0, 3.0]), mf.tensor([-3.0, -1.0, 1.0, 3.0])]
    np.testing.assert_array_equal(mf.histogramdd(mf.tensor(points), bins=given).hist.numpy(),
                                  np.histogramdd(points, bins=[[-3, 0, 3], [-3, -1, 1, 3]])[0])
