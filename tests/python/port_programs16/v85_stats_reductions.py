import torch

x = torch.tensor([[1.0, 4.0, 2.0, 8.0], [3.0, 3.0, 9.0, 0.0], [5.0, 1.0, 1.0, 7.0]])
sm = torch.std_mean(x, dim=1)
vm = torch.var_mean(x, dim=0, correction=0)
med = x.median(dim=1)
report(
    var=x.var(), var_unb=x.var(1, unbiased=False), var_corr=torch.var(x, dim=0, correction=2), std=x.std(0), sm=list(sm), vm=list(vm),
    median=x.median(), med_v=med.values, med_i=med.indices, nanmed=torch.tensor([1.0, float("nan"), 3.0, 2.0]).nanmedian(),
    mode=torch.tensor([[1, 2, 2, 3], [4, 4, 1, 1]]).mode(1), histc=torch.histc(x, bins=4, min=0, max=8),
    bc=torch.bincount(torch.tensor([0, 1, 1, 3]), weights=torch.tensor([0.5, 1.0, 1.0, 2.0])), nansum=torch.tensor([1.0, float("nan")]).nansum(),
    nanmean=torch.tensor([[1.0, float("nan")], [3.0, 5.0]]).nanmean(0), amax=x.amax((0, 1)), aminmax=list(torch.aminmax(x, dim=0)),
    logsumexp=x.logsumexp(1), prod_dim=x.prod(1, keepdim=True), norm_dim=x.norm(p=1, dim=1), mean_tuple=x.mean((0, 1), keepdim=True).shape,
    cov=torch.cov(x), corr=torch.corrcoef(x), cov_w=torch.cov(x, correction=0, aweights=torch.tensor([1.0, 2.0, 1.0, 0.5])),
    hist=list(torch.histogram(x.flatten(), bins=3)),
)
