import math
import torch
import torch.nn as nn

torch.manual_seed(0)
w = torch.empty(256, 128)
nn.init.kaiming_uniform_(w, a=math.sqrt(5))
bound = 1 / math.sqrt(128)
nn.init.kaiming_normal_(w2 := torch.empty(64, 32, 3, 3), mode="fan_out", nonlinearity="relu")
nn.init.xavier_uniform_(w3 := torch.empty(100, 50), gain=nn.init.calculate_gain("tanh"))
nn.init.trunc_normal_(w4 := torch.empty(1000), std=0.02, a=-0.04, b=0.04)
nn.init.orthogonal_(w5 := torch.empty(6, 4))
report(max_ok=bool(w.abs().max() <= bound + 1e-6), std2=round(w2.std().item(), 2),
       x3=bool(w3.abs().max() <= 5 / 3 * math.sqrt(6 / 150) + 1e-6), t4=bool(w4.abs().max() <= 0.04),
       ortho=torch.allclose(w5.t() @ w5, torch.eye(4), atol=1e-5), gains=[nn.init.calculate_gain(n) for n in ("relu", "linear", "sigmoid", "selu")],
       leaky=nn.init.calculate_gain("leaky_relu", 0.2))
