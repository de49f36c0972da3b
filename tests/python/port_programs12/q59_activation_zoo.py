import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.linspace(-3, 3, 13)
mods = [nn.ReLU6(), nn.SELU(), nn.CELU(0.5), nn.ELU(0.7), nn.Hardswish(), nn.Hardsigmoid(), nn.Mish(), nn.SiLU(), nn.LogSigmoid(), nn.Softsign(), nn.Tanhshrink(),
        nn.Hardshrink(0.7), nn.Softshrink(0.4), nn.Threshold(0.5, -1.0), nn.Hardtanh(-2.0, 1.5), nn.Softplus(beta=2, threshold=3), nn.LeakyReLU(0.05), nn.GELU(), nn.GELU("tanh"), nn.RReLU().eval(), nn.PReLU(init=0.1)]
res = {type(m).__name__ + str(i): m(x) for i, m in enumerate(mods)}
m2 = x.view(1, 13)
res["softmin"] = nn.Softmin(dim=1)(m2); res["logsoftmax"] = nn.LogSoftmax(dim=-1)(m2)
res["glu"] = nn.GLU(dim=-1)(torch.arange(8.0).view(2, 4))
res["sm2d"] = nn.Softmax2d()(torch.arange(8.0).view(1, 2, 2, 2))
bil = det(nn.Bilinear(3, 2, 4)); res["bil"] = bil(torch.ones(2, 3), torch.arange(4.0).view(2, 2))
res["cos"] = nn.CosineSimilarity(dim=1, eps=1e-6)(torch.arange(6.0).view(2, 3), torch.ones(2, 3))
res["pdist"] = nn.PairwiseDistance(p=1, keepdim=True)(torch.arange(6.0).view(2, 3), torch.ones(2, 3))
res["pdist_f"] = F.pdist(torch.arange(6.0).view(3, 2))
res["ad"] = nn.AlphaDropout(0.5).eval()(x)
res["fz"] = [F.relu6(x), F.elu(x, alpha=2.0), F.leaky_relu(x, 0.3), F.hardtanh(x, -1, 1), F.logsigmoid(x), F.softplus(x, beta=0.5), F.silu(x), F.mish(x), F.gelu(x, approximate="tanh"), F.selu(x), F.celu(x), F.threshold(x, 1.0, 0.0), F.tanhshrink(x), F.softsign(x), F.hardsigmoid(x), F.hardswish(x), F.rrelu(x, training=False), F.glu(torch.arange(4.0)), F.softmin(x, 0), F.normalize(x, dim=0)]
xr = x.clone().requires_grad_()
sum(m(xr).sum() for m in mods[:12]).backward()
res["g"] = xr.grad
inp = x.clone(); F.relu(inp, inplace=True); res["inpl"] = inp
inp2 = x.clone(); nn.ELU(inplace=True)(inp2); res["inpl2"] = inp2
report(**res)
