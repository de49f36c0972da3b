import torch

nan = float("nan")
x = torch.tensor([[1.0, nan, 3.0], [4.0, 5.0, -1.0], [nan, nan, nan]])
report(max_dim=list(torch.max(x, dim=1)), min_dim=list(torch.min(x, dim=0)), argmax=x.argmax(1), argmin=x.argmin(0), amax=x.amax(1),
       nanmedian=list(torch.nanmedian(x, dim=1)), median=list(torch.median(x, dim=1)), nansum=x.nansum(1), nanmean=x.nanmean(1),
       sum=x.sum(0), mean_all=x.mean().item(), std=x.std(1), logsumexp=torch.logsumexp(torch.tensor([[float("-inf"), float("-inf")], [0.0, 1.0]]), 1),
       aminmax=list(torch.aminmax(torch.tensor([2.0, nan, 1.0]))), var_nan=torch.var(torch.tensor([1.0]), unbiased=True).item(),
       all_inf_softmax=torch.softmax(torch.tensor([float("-inf"), float("-inf")]), 0), prod_nan=x.prod(1), cumsum=x[0].cumsum(0))
