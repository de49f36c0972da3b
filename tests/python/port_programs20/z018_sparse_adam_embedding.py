import torch
import torch.nn as nn
# meshflow's sparse embedding gradient is dense with the sparse one's values (docs/porting.md): grad.is_sparse is not reported

emb = det(nn.Embedding(10, 3, sparse=True))
lin = det(nn.Linear(3, 1))
opt_s = torch.optim.SparseAdam(list(emb.parameters()), lr=0.1)
opt_d = torch.optim.Adam(lin.parameters(), lr=0.1)
idx = torch.tensor([[1, 2, 4], [4, 3, 9]])
for _ in range(3):
    opt_s.zero_grad()
    opt_d.zero_grad()
    loss = lin(emb(idx)).pow(2).mean()
    loss.backward()
    opt_s.step()
    opt_d.step()
report(w=emb.weight, untouched=emb.weight[0], lin=lin.weight, loss=loss.item())
