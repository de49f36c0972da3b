import torch
x = torch.ones(2, 3, requires_grad=True); w = torch.ones(3, 3, requires_grad=True)
import torch.nn.functional as F
exprs = {"add": x + 1, "mul": x * 2, "matmul": x @ w, "mm": torch.mm(x, w), "relu": F.relu(x), "sum": x.sum(), "mean": x.mean(), "view": x.view(-1), "reshape": x.reshape(3, 2),
 "t": x.t(), "transpose": x.transpose(0, 1), "permute": x.permute(1, 0), "exp": x.exp(), "log": x.log(), "sigmoid": x.sigmoid(), "tanh": x.tanh(), "softmax": x.softmax(-1),
 "log_softmax": x.log_softmax(-1), "cat": torch.cat([x, x]), "stack": torch.stack([x, x]), "index": x[0], "slice": x[:, 1:], "linear": F.linear(x, w), "pow": x ** 2, "div": x / 2,
 "neg": -x, "unsqueeze": x.unsqueeze(0), "squeeze": x.unsqueeze(0).squeeze(0), "expand": x[:1].expand(2, 3), "clone": x.clone(), "mse": F.mse_loss(x, torch.zeros(2, 3)),
 "ce": F.cross_entropy(x, torch.tensor([0, 1])), "gelu": F.gelu(x), "max": x.max(), "amax": x.amax(-1), "norm": x.norm(), "sqrt": x.sqrt(), "abs": x.abs(), "float": x.double(),
 "contig": x.t().contiguous(), "flatten": x.flatten(), "masked_fill": x.masked_fill(x > 0, 0), "where": torch.where(x > 0, x, x * 2), "gather": x.gather(1, torch.tensor([[0], [1]])),
 "layer_norm": F.layer_norm(x, (3,)), "dropout": F.dropout(x, 0.0), "embedding": F.embedding(torch.tensor([0]), w), "bmm": torch.bmm(x[None], w[None]), "einsum": torch.einsum("ij,jk->ik", x, w),
 "chunk": x.chunk(3, 1)[0], "split": x.split(1)[0], "narrow": x.narrow(1, 0, 2), "select": x.select(0, 1), "repeat": x.repeat(2, 1), "clamp": x.clamp(0, 1), "var": x.var(), "std": x.std(),
 "softplus": F.softplus(x), "silu": F.silu(x), "bce": F.binary_cross_entropy_with_logits(x, torch.ones(2, 3)), "nll": F.nll_loss(x, torch.tensor([0, 1])), "cumsum": x.cumsum(0), "logsumexp": x.logsumexp(1),
 "addmm": torch.addmm(x[0], x, w), "sort": x.sort()[0], "topk": x.topk(1)[0], "flip": x.flip(0), "roll": x.roll(1), "tril": w.tril(), "to": x.to(torch.float64),
 "rsub": 1 - x, "rdiv": 1 / x, "maximum": torch.maximum(x, x), "sin": x.sin(), "mean_dim": x.mean(1), "conv": F.conv2d(x.view(1, 1, 2, 3), w.view(1, 1, 3, 3)[:, :, :2, :2]),
 "maxpool": F.max_pool2d(x.view(1, 1, 2, 3), 2), "avgpool": F.avg_pool2d(x.view(1, 1, 2, 3), 2), "bn": F.batch_norm(x, None, None, training=True), "interp": F.interpolate(x.view(1, 1, 2, 3), scale_factor=2),
 "pad": F.pad(x, (1, 1)), "normalize": F.normalize(x), "l1": F.l1_loss(x, x * 0), "smoothl1": F.smooth_l1_loss(x, x * 0), "kl": F.kl_div(x, x, reduction="batchmean"),
 "index_sel": x.index_select(0, torch.tensor([0])), "adv_idx": x[torch.tensor([0, 1])], "bool_idx": x[x > 0], "masked_select": x.masked_select(x > 0), "prod": x.prod(), "min": x.min(), "argmaxnone": None}
res = {k: (type(v.grad_fn).__name__ if v is not None and v.grad_fn is not None else None) for k, v in exprs.items()}
res["next"] = [type(f[0]).__name__ for f in (x @ w + x).grad_fn.next_functions]
res["name"] = (x * 2).grad_fn.name()
report(**res)
