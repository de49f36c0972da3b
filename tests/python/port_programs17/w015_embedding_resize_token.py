import torch
import torch.nn as nn

old = det(nn.Embedding(6, 3))
new = nn.Embedding(8, 3)
with torch.no_grad():
    new.weight[:6] = old.weight
    mean = old.weight.mean(0)
    cov = ((old.weight - mean).T @ (old.weight - mean)) / 6
    new.weight[6:] = mean
ids = torch.tensor([0, 5, 6, 7])
report(out=new(ids), cov=cov, nw=new.num_embeddings, r=repr(new), eqold=torch.equal(new.weight[:6], old.weight))
