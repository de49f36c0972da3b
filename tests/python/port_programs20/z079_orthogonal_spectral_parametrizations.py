import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import orthogonal, spectral_norm

lin = orthogonal(det(nn.Linear(4, 4)))
W = lin.weight
ortho = torch.allclose(W @ W.T, torch.eye(4), atol=1e-5)
keys = sorted(lin.state_dict().keys())
sn = spectral_norm(det(nn.Linear(5, 3), seed=2))
sn.eval()
W2 = sn.weight
sv = torch.linalg.matrix_norm(W2, ord=2)
report(ortho=ortho, keys=keys, sn_keys=sorted(sn.state_dict().keys()), sv_le=sv.item() <= 1.0 + 1e-3, cls=type(lin).__name__)
