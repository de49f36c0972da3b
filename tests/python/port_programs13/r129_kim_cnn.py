import torch
import torch.nn as nn
import torch.nn.functional as F
class KimCNN(nn.Module):
    def __init__(self, V=20, D=6, nf=4, sizes=(2, 3, 4), C=3):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=0)
        self.convs = nn.ModuleList([nn.Conv1d(D, nf, k) for k in sizes])
        self.drop = nn.Dropout(0.5)
        self.fc = nn.Linear(nf * len(sizes), C)
    def forward(self, x):
        e = self.emb(x).transpose(1, 2)
        pooled = [F.max_pool1d(F.relu(c(e)), c(e).size(2)).squeeze(2) for c in self.convs]
        return self.fc(self.drop(torch.cat(pooled, 1)))
model = det(KimCNN())
x = ints(20, 5, 9)
y = ints(3, 5, seed=4)
opt = torch.optim.Adadelta(model.parameters())
model.eval()
L = []
for _ in range(3):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
    with torch.no_grad():
        model.fc.weight.data = torch.renorm(model.fc.weight.data, p=2, dim=0, maxnorm=3.0)
report(L=L, norms=model.fc.weight.norm(dim=1), out=model(x)[0], renorm=torch.renorm(torch.arange(6.0).view(2, 3), 1, 0, 5))
