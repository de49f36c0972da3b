import torch
import torch.nn.functional as F

x = data(4, 6)
xt = x.t()
xs = x[:, ::2]
xp = data(2, 5, 5, 3).permute(0, 3, 1, 2)
w = data(4, 3, 3, 3, seed=4)
res = {
    "is_c": [xt.is_contiguous(), xs.is_contiguous(), xp.is_contiguous(), xt.contiguous().is_contiguous()],
    "mm": xt @ x, "sum": xs.sum(0), "cumsum": xt.cumsum(1)[-1], "conv": F.conv2d(xp, w, padding=1)[0, :, 2, 2],
    "conv_eq": torch.allclose(F.conv2d(xp, w), F.conv2d(xp.contiguous(), w), atol=1e-5), "softmax": xs.softmax(1)[0],
    "reshape": xt.reshape(-1)[:5], "flatten": xs.flatten()[:4], "strides": [list(xt.stride()), list(xs.stride()), list(xp.stride())],
    "linear": F.linear(xs, data(2, 3, seed=7))[1], "norm": F.layer_norm(xt, (4,))[0], "sort": xt.sort(1).values[0],
    "gather": xt.gather(1, torch.zeros(6, 1, dtype=torch.long)).squeeze(), "max": xs.max(1).values,
}
try:
    xt.view(-1)
    res["view"] = "ok"
except RuntimeError:
    res["view"] = "RuntimeError"
res["view_ok"] = x[1:3].view(12).shape
report(**res)
