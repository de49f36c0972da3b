import torch

s = torch.tensor(3.5)
i = torch.tensor(7)
v = torch.arange(3.0)
res = {
    "shape": s.shape, "dim": s.dim(), "numel": s.numel(), "item": s.item(), "float": float(i), "int": int(s), "bool": bool(i),
    "add": s + v, "mul_i": i * v, "stack": torch.stack([s, s * 2]), "cat_unsq": torch.cat([s.unsqueeze(0), v]),
    "index": v[i - 6], "ellipsis": s[...], "none": s[None], "view": s.view(1, 1).shape, "reshape": s.reshape(-1),
    "sum": s.sum(), "sum0": s.sum(0), "max0": s.max(0)[0], "argmax": s.argmax(), "expand": s.expand(2, 2),
    "i_div": i / 2, "i_floordiv": i // 2, "tolist": s.tolist(), "fmt": f"{s:.2f}", "fmt_i": "{:d}".format(i.item()),
    "round": round(s.item()), "compare": bool(s > 3), "python_ops": [abs(torch.tensor(-2)), -s, s ** 2],
    "unbind": len(torch.arange(3.0).unbind()), "sq": torch.ones(1, 1).squeeze().shape, "t": s.t(), "ms": s.mean(),
}
try:
    len(s)
    res["len"] = "no error"
except TypeError:
    res["len"] = "TypeError"
try:
    s[0]
except IndexError:
    res["idx"] = "IndexError"
for _ in s.reshape(1):
    res["iter"] = "ok"
report(**res)
