import torch

src = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]])
index = torch.tensor([[0, 1, 0, 2], [2, 2, 1, 0]])
base = torch.full((2, 3), 10.0)
add = base.clone().scatter_(1, index[:, :3], src[:, :3], reduce="add")
mul = base.clone().scatter_(1, index[:, :3], src[:, :3], reduce="multiply")
sr = {}
for red in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in (True, False):
        sr[f"{red}_{inc}"] = base.scatter_reduce(1, index, src, reduce=red, include_self=inc)
s0 = torch.zeros(3, 4).scatter_(0, torch.tensor([[0, 1, 2, 0]]), 1.5)
ints_ = torch.zeros(4, dtype=torch.long).scatter_add_(0, torch.tensor([0, 0, 3]), torch.tensor([5, 6, 7]))
mean_int = torch.zeros(3, dtype=torch.long).scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([3, 4, 5]), "mean", include_self=False)
report(add=add, mul=mul, sr=sr, s0=s0, ints_=ints_, mean_int=mean_int)
