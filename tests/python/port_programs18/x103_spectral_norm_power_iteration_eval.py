import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.utils.parametrizations.spectral_norm(det(nn.Linear(4, 3)), n_power_iterations=5)
lin.train()
for _ in range(10):
    lin(data(2, 4))
lin.eval()
s = torch.linalg.matrix_norm(lin.weight, ord=2)
report(s=round(s.item(), 3), keys=sorted(lin.state_dict().keys()))
