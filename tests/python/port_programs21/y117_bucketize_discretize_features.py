import torch
import torch.nn as nn

age = torch.tensor([3.0, 17.0, 18.0, 35.0, 64.0, 65.0, 90.0])
bounds = torch.tensor([18.0, 35.0, 65.0])
b = torch.bucketize(age, bounds)
br = torch.bucketize(age, bounds, right=True)
emb = det(nn.Embedding(4, 2), seed=1)
feat = emb(b)
cont = data(5, seed=2)
edges = torch.quantile(cont, torch.tensor([0.25, 0.5, 0.75]))
qb = torch.searchsorted(edges, cont.contiguous())
sorter = torch.argsort(torch.tensor([3.0, 1.0, 2.0]))
ss = torch.searchsorted(torch.tensor([3.0, 1.0, 2.0]), torch.tensor([1.5, 2.5]), sorter=sorter)
report(b=b, br=br, feat=feat.detach(), qb=qb, ss=ss, scalar=torch.bucketize(torch.tensor(20.0), bounds))
