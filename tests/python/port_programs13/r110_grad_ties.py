import torch
def g(fn, x):
    x = x.clone().requires_grad_()
    fn(x).backward()
    return x.grad
t = torch.tensor([1.0, 3.0, 3.0, 2.0])
res = {
    "max_all": g(lambda x: x.max(), t), "amax": g(lambda x: x.amax(), t), "max_dim": g(lambda x: x.max(0).values, t),
    "min_all": g(lambda x: x.min(), torch.tensor([1.0, 1.0, 2.0])), "norm0": g(lambda x: x.norm(), torch.zeros(3)), "abs0": g(lambda x: x.abs().sum(), torch.tensor([0.0, -1.0])),
    "relu0": g(lambda x: torch.relu(x).sum(), torch.tensor([0.0, 1.0])), "median": g(lambda x: x.median(), t), "sort": g(lambda x: (x.sort().values * torch.arange(4.0)).sum(), t),
    "topk": g(lambda x: x.topk(2).values.sum(), t), "clamp_edge": g(lambda x: x.clamp(1.0, 3.0).sum(), t), "sqrt0": g(lambda x: x.sqrt().sum(), torch.tensor([0.0, 4.0])),
    "maximum_tie": g(lambda x: torch.maximum(x, torch.tensor([1.0, 0.0, 3.0, 5.0])).sum(), t), "logsumexp": g(lambda x: x.logsumexp(0), t),
    "kth": g(lambda x: x.kthvalue(2).values, t), "prod0": g(lambda x: x.prod(), torch.tensor([2.0, 0.0, 3.0])), "std1": g(lambda x: x.std(), t),
    "where": g(lambda x: torch.where(x > 2, x, x * x).sum(), t), "cummax": g(lambda x: x.cummax(0).values.sum(), t),
}
report(**res)
