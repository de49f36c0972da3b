import torch
import torch.nn as nn
import torch.nn.functional as F
emb = det(nn.Embedding(10, 4, padding_idx=2))
with torch.no_grad():
    emb.weight[2].zero_()
ids = torch.tensor([[1, 2, 3], [2, 2, 9]])
out = emb(ids); out.pow(2).sum().backward()
res = {"out": out, "g": emb.weight.grad[:4]}
mn = det(nn.Embedding(6, 3, max_norm=1.0), seed=2, scale=1.0)
before = mn.weight.norm(dim=1).clone()
o = mn(torch.tensor([0, 1, 1]))
res["mn"] = [before, mn.weight.norm(dim=1), o]
pre = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
fe = nn.Embedding.from_pretrained(pre, freeze=True, padding_idx=0)
res["fp"] = [fe(torch.tensor([2, 0])), fe.weight.requires_grad, nn.Embedding.from_pretrained(pre, freeze=False).weight.requires_grad]
bag = det(nn.EmbeddingBag(10, 3, mode="sum"), seed=3)
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]); offs = torch.tensor([0, 4])
res["bag_sum"] = bag(inp, offs, per_sample_weights=torch.arange(1.0, 9.0))
bag_max = det(nn.EmbeddingBag(10, 3, mode="max"), seed=3)
res["bag_max"] = bag_max(inp.view(2, 4))
bm = det(nn.EmbeddingBag(10, 3, mode="mean", include_last_offset=True, padding_idx=2), seed=3)
res["bag_last"] = bm(inp, torch.tensor([0, 3, 8]))
res["femb"] = F.embedding(torch.tensor([[0, 2]]), pre, padding_idx=0)
res["onehot"] = [F.one_hot(torch.tensor([0, 2, 1]), 4), F.one_hot(torch.tensor([[1], [0]])).shape]
res["fbag"] = F.embedding_bag(torch.tensor([0, 1, 2]), pre, torch.tensor([0, 1]), mode="mean")
sp = det(nn.Embedding(5, 2, sparse=False, scale_grad_by_freq=True), seed=6)
sp(torch.tensor([1, 1, 1, 3])).sum().backward()
res["sgf"] = sp.weight.grad
report(**res)
