import math
import torch
import torch.nn as nn

torch.manual_seed(0)
w = torch.empty(64, 32)
res = {}
for name, fn in [("xavier_uniform", lambda t: nn.init.xavier_uniform_(t, gain=nn.init.calculate_gain("relu"))),
                 ("xavier_normal", nn.init.xavier_normal_),
                 ("kaiming_uniform", lambda t: nn.init.kaiming_uniform_(t, a=math.sqrt(5))),
                 ("kaiming_normal", lambda t: nn.init.kaiming_normal_(t, mode="fan_out", nonlinearity="relu")),
                 ("trunc_normal", lambda t: nn.init.trunc_normal_(t, std=0.02, a=-0.04, b=0.04)),
                 ("uniform", lambda t: nn.init.uniform_(t, -0.1, 0.1)), ("normal", lambda t: nn.init.normal_(t, 0.5, 0.01))]:
    fn(w)
    res[name] = [round(w.abs().max().item(), 1) <= 10, w.min().item() >= -10]
    res[name + "_bound"] = w.abs().max().item()
orth = nn.init.orthogonal_(torch.empty(5, 3))
eye = nn.init.eye_(torch.empty(3, 4))
dirac = nn.init.dirac_(torch.empty(2, 2, 3))
const = nn.init.constant_(torch.empty(2), 0.3)
sparse = nn.init.sparse_(torch.empty(10, 4), sparsity=0.3)
gains = {k: nn.init.calculate_gain(k) for k in ["linear", "sigmoid", "tanh", "relu", "selu", "conv2d"]}
gains["leaky"] = nn.init.calculate_gain("leaky_relu", 0.2)
fan = nn.init._calculate_fan_in_and_fan_out(torch.empty(6, 4, 3, 3))
report(xu_ok=res["xavier_uniform_bound"] <= math.sqrt(2) * math.sqrt(6 / 96) + 1e-6,
       ku_ok=res["kaiming_uniform_bound"] <= 1 / math.sqrt(32) + 1e-6, tn_ok=res["trunc_normal_bound"] <= 0.04,
       u_ok=res["uniform_bound"] <= 0.1, orth=torch.allclose(orth.T @ orth, torch.eye(3), atol=1e-5), eye=eye, dirac=dirac,
       const=const, sparse_zero=(sparse == 0).sum(0).tolist(), gains=gains, fan=list(fan), zeros=nn.init.zeros_(torch.ones(2)),
       ones=nn.init.ones_(torch.zeros(2)))
