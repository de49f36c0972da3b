import torch
import torch.nn as nn

cont = data(32, 4) * torch.tensor([1.0, 10.0, 0.1, 100.0]) + torch.tensor([0.0, 50.0, -1.0, 500.0])
mean, std = cont.mean(0), cont.std(0, unbiased=False)
norm = (cont - mean) / std
cat = ints(5, 32, seed=7)
y = (norm[:, 0] + norm[:, 1] > 0).long()
emb = nn.Embedding(5, 2)
net = nn.Sequential(nn.Linear(6, 16, bias=False), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.0), nn.Linear(16, 2))
det(emb, seed=3); det(net, seed=4)
params = list(emb.parameters()) + list(net.parameters())
opt = torch.optim.Adam(params, lr=0.02)
for epoch in range(3):
    for idx in torch.arange(32).split(8):
        x = torch.cat([norm[idx], emb(cat[idx])], 1)
        loss = nn.functional.cross_entropy(net(x), y[idx])
        opt.zero_grad(); loss.backward(); opt.step()
net.eval()
with torch.no_grad():
    logits = net(torch.cat([norm, emb(cat)], 1))
acc = (logits.argmax(1) == y).float().mean().item()
bn = net[1]
report(mean=mean, std=std, loss=loss.item(), acc=acc, running_mean=bn.running_mean, running_var=bn.running_var,
       tracked=bn.num_batches_tracked, probs=logits.softmax(-1)[:4])
