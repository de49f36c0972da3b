import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.linspace(-3, 3, 7)
mods = [nn.ReLU(), nn.ReLU6(), nn.LeakyReLU(0.05), nn.PReLU(init=0.2), nn.RReLU(0.1, 0.3).eval(), nn.ELU(0.7), nn.SELU(),
        nn.CELU(1.5), nn.GELU(), nn.GELU("tanh"), nn.SiLU(), nn.Mish(), nn.Hardswish(), nn.Hardsigmoid(), nn.Hardtanh(-2, 2),
        nn.Softplus(beta=2, threshold=5), nn.Softsign(), nn.Tanhshrink(), nn.Softshrink(0.7), nn.Hardshrink(0.9),
        nn.Threshold(0.5, -1.0), nn.LogSigmoid(), nn.Sigmoid(), nn.Tanh()]
r = {type(m).__name__ + str(i): m(x) for i, m in enumerate(mods)}
m2 = torch.arange(-4.0, 4.0).view(2, 4)
r["softmax2d"] = nn.Softmax2d()(m2.view(1, 2, 2, 2))
r["softmin"] = nn.Softmin(dim=1)(m2)
r["logsoftmax_dtype"] = F.log_softmax(m2, dim=-1, dtype=torch.float64).dtype
r["glu"] = F.glu(m2, dim=-1)
r["gumbel_hard_sum"] = F.gumbel_softmax(m2, tau=0.5, hard=True).sum(-1)
r["relu_inplace"] = F.relu(m2.clone(), inplace=True)
r["elu_"] = F.elu_(m2.clone())
r["hardtanh_"] = F.hardtanh(m2, min_val=-1.0, max_val=0.5)
r["silu_grad"] = torch.autograd.grad(F.silu(x.clone().requires_grad_()).sum(), [x.clone().requires_grad_()], allow_unused=True)[0] is None
xs = x.clone().requires_grad_()
F.mish(xs).sum().backward()
r["mish_grad"] = xs.grad
xg = x.clone().requires_grad_()
F.gelu(xg, approximate="tanh").sum().backward()
r["gelu_grad"] = xg.grad
report(**r)
