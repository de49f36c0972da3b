import torch

emb = data(2, 4, 3, seed=1)
r, c = torch.triu_indices(4, 4, offset=1)
pair = (emb[:, r] * emb[:, c]).sum(-1)
inter = torch.bmm(emb, emb.transpose(1, 2))
li, lj = torch.tril_indices(4, 4, -1)
flat = inter[:, li, lj]
cov = torch.cov(data(3, 10, seed=2))
corr = torch.corrcoef(data(3, 10, seed=2))
report(pair=pair, flat=flat, r=r, c=c, cov=cov, corr=corr, tri=torch.tril(torch.ones(3, 3), diagonal=-1),
       triu=data(3, 3, seed=3).triu(1))
