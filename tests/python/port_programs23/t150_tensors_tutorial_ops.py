import torch
import numpy as np

tensor = torch.arange(12, dtype=torch.float32).reshape(3, 4) / 4
info = [f"Shape of tensor: {tensor.shape}", f"Datatype of tensor: {tensor.dtype}", f"Device tensor is stored on: {tensor.device}"]
t_first = tensor[0]
t_col = tensor[:, 0]
t_last = tensor[..., -1]
stacked = torch.stack([tensor, tensor], dim=0)
t2 = torch.cat([tensor, tensor], dim=0)
agg = tensor.sum()
mean = tensor.mean(dim=1, keepdim=True)
std = tensor.std()
tensor.add_(5)
views = [t_first.clone(), t_col.clone(), t_last.clone()]
del t_first, t_col, t_last  # an in-place transpose of a tensor with live views: docs/porting.md
tensor.t_()
clone = tensor.clone()
tensor.mul_(2).sub_(1)
n = np.arange(4.0)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
z = torch.zeros(2, 2)
z.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
z.clamp_(max=3.0)
z.fill_diagonal_(-1)
report(info=info, views=views, stacked=stacked.shape, t2=t2.shape, agg=agg, mean=mean, std=std,
       tensor=tensor, clone=clone, t=t, z=z, item=agg.item(), tolist=tensor[0].tolist(), np=tensor.numpy().sum().item())
