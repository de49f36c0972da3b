import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.linspace(-3, 3, 9)
acts = [nn.ReLU(), nn.LeakyReLU(0.1), nn.ELU(0.7), nn.SELU(), nn.CELU(0.5), nn.GELU(), nn.GELU("tanh"), nn.SiLU(), nn.Mish(),
        nn.Softplus(beta=2, threshold=5), nn.Softsign(), nn.Tanhshrink(), nn.Hardtanh(-2, 2), nn.Hardsigmoid(), nn.Hardswish(),
        nn.Softshrink(0.5), nn.Hardshrink(1.0), nn.Threshold(0.5, -1.0), nn.LogSigmoid(), nn.RReLU(0.1, 0.3).eval(), nn.ReLU6(), nn.GLU()]
vals = {type(a).__name__ + str(i): a(x if not isinstance(a, nn.GLU) else x[:8]) for i, a in enumerate(acts)}
m = torch.stack([x, x * 2])
vals["softmin"] = F.softmin(m, dim=1)
vals["logsoftmax0"] = F.log_softmax(m, dim=0)
vals["normalize"] = F.normalize(m, p=1, dim=1)
vals["gumbel_hard_shape"] = torch.tensor(F.gumbel_softmax(m, tau=0.5, hard=True).shape)
vals["softmax_dtype"] = F.softmax(m, dim=1, dtype=torch.float64)
report(**vals, reprs=[repr(a) for a in acts[:12]])
