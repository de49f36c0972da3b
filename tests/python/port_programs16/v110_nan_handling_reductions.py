import torch

x = torch.tensor([[1.0, float("nan"), 3.0], [float("nan"), float("nan"), 0.5], [2.0, -1.0, 4.0]])
mx = x.max(dim=1)
mn = x.min(dim=0)
report(
    max_all=x.max(), amax=x.amax(1), mx_v=mx.values, mx_i=mx.indices, mn_v=mn.values, mn_i=mn.indices, argmax=x.argmax(1),
    sort=x.sort(1).values, sort_i=x.sort(1, descending=True).indices, topk=x.topk(2, 1).indices, cummax=x.cummax(1).values,
    nansum=x.nansum(1), nanmean=x.nanmean(0), maximum=torch.maximum(x[0], x[1]), fmin=torch.fmin(x[0], x[1]),
    clamp=x.clamp(0, 2), eq=(x == x), isnan=x.isnan().sum(), unique=torch.unique(x[2]), median=x.median(1).values,
    sum=x.sum(), mean1=x.mean(1), logsumexp=x.logsumexp(1), softmax=x.softmax(1)[2], where=torch.where(x.isnan(), 0.0, x),
)
