import torch
import torch.nn.functional as F

x = torch.randn(2, 3, requires_grad=True)
ops = {
    "prod": x.prod(), "prod1": x.prod(1), "amax": x.amax(1), "amin": x.amin(), "std": x.std(), "std1": x.std(1), "var1": x.var(0), "norm1": x.norm(dim=1),
    "lse": x.logsumexp(1), "max1": x.max(1)[0], "min": x.min(), "median": x.median(), "cumprod": x.cumprod(1), "sub_s": x - 1, "rsub": 1 - x, "div_t": x / x,
    "rdiv": 1 / x, "pow_t": x ** x, "rpow": 2 ** x, "exp2": torch.exp2(x), "expm1": x.expm1(), "log2": x.abs().log2(), "tril": x.tril(), "flip": x.flip(0),
    "roll": x.roll(1), "split0": x.split(1)[0], "chunk1": x.chunk(3, 1)[1], "narrow": x.narrow(1, 0, 2), "select": x.select(1, 0), "diag": x.diagonal(),
    "t": x.T, "mT": x.mT, "sq0": x.unsqueeze(0).squeeze(0), "sl": x[:, :2], "idx": x[[0, 1]], "bool_idx": x[x > 0], "where": torch.where(x > 0, x, x * 2),
    "leaky": F.leaky_relu(x), "elu": F.elu(x), "silu": F.silu(x), "softplus": F.softplus(x), "hardtanh": F.hardtanh(x), "lin_nob": F.linear(x, x),
    "bce": F.binary_cross_entropy_with_logits(x, torch.zeros(2, 3)), "l1": F.l1_loss(x, torch.zeros(2, 3)), "smooth": F.smooth_l1_loss(x, torch.zeros(2, 3)),
    "nll": F.nll_loss(x, torch.tensor([0, 1])), "kl": F.kl_div(x, torch.ones(2, 3) / 3, reduction="batchmean"), "mm": x.mm(x.t()), "bmm": x[None].bmm(x.t()[None]),
    "addmm": torch.addmm(torch.zeros(2, 2), x, x.t()), "einsum": torch.einsum("ij,kj->ik", x, x), "cross": torch.linalg.cross(x, x), "outer": torch.outer(x[0], x[1]),
    "cat1": torch.cat([x, x], 1), "unbind": x.unbind(0)[1], "expand_as": x[:1].expand_as(x), "atan2": torch.atan2(x, x),
    "clamp_min": x.clamp(min=0), "clamp_max": x.clamp(max=0), "sgn": x.sign(), "round": x.round(), "frac": x.frac(), "erf": x.erf(), "lgamma": x.lgamma(),
    "trace": x[:, :2].trace(), "fill": x.masked_fill(x > 0, 1.0), "scatter": x.scatter(1, torch.tensor([[0], [1]]), 0.0), "sort": x.sort(1)[0], "topk": x.topk(2)[0],
    "cumsum": x.cumsum(0), "dot": x[0].dot(x[1]), "mv": x.mv(x[0]), "view_as": x.view_as(x), "type_as": x.type_as(x.double()), "half": x.half(),
}
report(names={k: (None if v.grad_fn is None else v.grad_fn.name()) for k, v in ops.items()})
