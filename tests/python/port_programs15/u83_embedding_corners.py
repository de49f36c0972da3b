import torch
import torch.nn as nn
import torch.nn.functional as F

emb = nn.Embedding(6, 3, padding_idx=2)
det(emb)
r = {"pad_row": emb.weight[2].tolist()}
with torch.no_grad():
    emb.weight[2] = 0
out = emb(torch.tensor([[0, 2, 5], [2, 2, 1]]))
out.sum().backward()
r["pad_grad"] = emb.weight.grad[2]
r["grad_counts"] = emb.weight.grad[:, 0]
pre = nn.Embedding.from_pretrained(torch.arange(12.).view(4, 3), freeze=True)
r["frozen"] = pre.weight.requires_grad
r["pre"] = pre(torch.tensor([3, 0]))
mn = nn.Embedding(5, 4, max_norm=1.0)
det(mn, scale=2.0)
_ = mn(torch.tensor([1, 3]))
r["renormed"] = mn.weight.norm(dim=1)
sp = nn.Embedding(5, 2, sparse=False, scale_grad_by_freq=True)
det(sp)
sp(torch.tensor([1, 1, 1, 4])).sum().backward()
r["freq_grad"] = sp.weight.grad[:, 0]
r["f_emb"] = F.embedding(torch.tensor([1, 0]), torch.eye(3), padding_idx=0)
r["onehot"] = F.one_hot(torch.tensor([[0, 2], [1, 1]]), num_classes=4)
r["onehot_infer"] = F.one_hot(torch.tensor([3, 0])).shape
r["long_idx_3d"] = emb(torch.zeros(2, 1, 2, dtype=torch.long)).shape
r["int32_idx"] = emb(torch.tensor([1], dtype=torch.int32)).shape
report(**r)
