import torch
import torch.nn as nn

edges = torch.tensor([[0, 1, 1, 2, 2, 3, 3, 4, 0, 4], [1, 0, 2, 1, 3, 2, 4, 3, 4, 0]])
n = 5
self_loops = torch.arange(n).repeat(2, 1)
ei = torch.cat([edges, self_loops], 1)
deg = torch.bincount(ei[0], minlength=n).float()
w = deg[ei[0]].rsqrt() * deg[ei[1]].rsqrt()
A = torch.sparse_coo_tensor(ei, w, (n, n))
X = data(n, 3)
y = torch.tensor([0, 0, 1, 1, 1])
lin1 = det(nn.Linear(3, 4), seed=1)
lin2 = det(nn.Linear(4, 2), seed=2)
opt = torch.optim.Adam(list(lin1.parameters()) + list(lin2.parameters()), lr=0.05)
hist = []
for _ in range(8):
    h = torch.relu(torch.sparse.mm(A, lin1(X)))
    out = torch.sparse.mm(A, lin2(h))
    loss = nn.functional.cross_entropy(out, y)
    opt.zero_grad(); loss.backward(); opt.step(); hist.append(loss.item())
report(deg=deg, w=w[:4], hist=hist, pred=out.argmax(1), dense_same=torch.allclose(A.to_dense() @ X, torch.sparse.mm(A, X)))
