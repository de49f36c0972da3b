import torch

x = data(50, seed=4)
bounds = torch.quantile(x, torch.tensor([0.25, 0.5, 0.75]))
b1 = torch.bucketize(x, bounds)
b2 = torch.bucketize(x, bounds, right=True)
counts = torch.bincount(b1, minlength=4)
h = torch.histc(x, bins=5, min=-2, max=2)
hist, edges = torch.histogram(x, bins=4)
ss = torch.searchsorted(bounds, torch.tensor([[-1.0, 0.0], [0.5, 3.0]]), side="right")
ints = torch.tensor([1, 3, 3, 5, 7])
bi = torch.bucketize(torch.tensor([0, 3, 4, 8]), ints)
report(bounds=bounds, b1=b1[:10], b2=b2[:10], counts=counts, h=h, hist=hist, edges=edges, ss=ss, bi=bi, dt=b1.dtype,
       i32=torch.bucketize(x[:3], bounds, out_int32=True).dtype)
