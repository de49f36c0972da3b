import torch
import torch.nn as nn

emb = det(nn.Embedding(6, 3, max_norm=1.0), scale=1.0)
before = emb.weight.detach().norm(dim=1)
idx = torch.tensor([[0, 2], [2, 5]])
out = emb(idx)
after = emb.weight.detach().norm(dim=1)
s = det(nn.Embedding(6, 3, sparse=True))
opt = torch.optim.SparseAdam(list(s.parameters()), lr=0.1)
for _ in range(3):
    loss = s(torch.tensor([1, 3, 3])).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
g = s.weight.grad
dense_g = g.to_dense() if g.is_sparse else g
pre = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
fe = nn.Embedding.from_pretrained(pre, freeze=True, padding_idx=1)
# a sparse embedding's gradient is dense in meshflow (docs/porting.md): its values are torch's
report(before=before, after=after, out_norm=out.norm(dim=-1), dense_g=dense_g,
       weight=s.weight, fe=fe(torch.tensor([2, 1])), fe_rg=fe.weight.requires_grad)
