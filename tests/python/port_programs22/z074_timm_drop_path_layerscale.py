import torch
import torch.nn as nn

def drop_path(x, drop_prob: float = 0.0, training: bool = False, scale_by_keep: bool = True):
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor.div_(keep_prob)
    return x * random_tensor

class DropPath(nn.Module):
    def __init__(self, drop_prob=None):
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training)

    def extra_repr(self):
        return f"drop_prob={round(self.drop_prob, 3):0.3f}"

class LayerScale(nn.Module):
    def __init__(self, dim, init_values=1e-5, inplace=False):
        super().__init__()
        self.inplace = inplace
        self.gamma = nn.Parameter(init_values * torch.ones(dim))

    def forward(self, x):
        return x.mul_(self.gamma) if self.inplace else x * self.gamma

dp = DropPath(0.25)
x = torch.ones(2000, 3, 2)
y = dp(x)
vals = torch.unique(y)
per_sample = (y.flatten(1) == 0).all(1) | (y.flatten(1) != 0).all(1)
dp.eval()
ls = LayerScale(4, init_values=0.1)
z = data(2, 4, seed=92)
report(vals=vals, per_sample=bool(per_sample.all()), frac_ok=0.2 < (y[:, 0, 0] == 0).float().mean().item() < 0.3,
       eval_same=dp(x) is x, repr=repr(dp), ls=ls(z), dpr=[round(v.item(), 4) for v in torch.linspace(0, 0.1, 4)],
       new_empty=x.new_empty((3, 1)).shape)
