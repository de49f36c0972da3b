import torch

labels = torch.tensor([0, 2, 2, 5, 1, 2])
bc = torch.bincount(labels)
bcm = torch.bincount(labels, minlength=8)
bcw = torch.bincount(labels, weights=torch.tensor([0.5, 1.0, 1.0, 2.0, 0.25, 1.0]))
x = data(50, seed=1)
h = torch.histc(x, bins=5, min=-2, max=2)
hist, edges = torch.histogram(x, bins=4, range=(-2.0, 2.0))
bounds = torch.tensor([-1.0, 0.0, 1.0])
vals = torch.tensor([-1.5, -1.0, 0.0, 0.3, 1.0, 2.0])
b1 = torch.bucketize(vals, bounds)
b2 = torch.bucketize(vals, bounds, right=True)
s1 = torch.searchsorted(bounds, vals)
s2 = torch.searchsorted(bounds, vals, side="right")
s3 = torch.searchsorted(torch.tensor([[1, 3, 5], [2, 4, 6]]), torch.tensor([[3], [5]]))
cdf = torch.cumsum(torch.tensor([0.1, 0.2, 0.3, 0.4]), 0)
report(bc=bc, bcm=bcm, bcw=bcw, h=h, hist=hist, edges=edges, b1=b1, b2=b2, s1=s1, s2=s2, s3=s3,
       inv_cdf=torch.searchsorted(cdf, torch.tensor([0.05, 0.35, 0.95])), b1d=b1.dtype,
       b32=torch.bucketize(vals, bounds, out_int32=True).dtype)
