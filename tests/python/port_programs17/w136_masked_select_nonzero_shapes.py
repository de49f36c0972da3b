import torch

x = data(3, 4, seed=2)
m = x > 0
report(ms=torch.masked_select(x, m), nz=torch.nonzero(m), nzt=[t.tolist() for t in m.nonzero(as_tuple=True)], argw=torch.argwhere(m),
       cnt=m.sum(1), bm=x[m.any(1)], sel=x[:, m.all(0)], col=x[m[:, 0]].shape, neg=x[~m], mscatter=torch.zeros(3, 4).masked_scatter(m, torch.arange(12.0)),
       wh=torch.where(m), nz0=torch.nonzero(torch.tensor(0.0)).shape, nzs=torch.nonzero(torch.tensor(5)).shape)
