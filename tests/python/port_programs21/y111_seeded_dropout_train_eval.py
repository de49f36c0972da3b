import torch
import torch.nn as nn

m = nn.Sequential(nn.Linear(4, 50), nn.Dropout(0.5), nn.Linear(50, 2))
det(m, seed=1)
x = data(3, 4, seed=2)
m.train()
torch.manual_seed(0)
a = m(x)
torch.manual_seed(0)
b = m(x)
c = m(x)
m.eval()
e1, e2 = m(x), m(x)
h = m[0](x)
drop = nn.functional.dropout(torch.ones(10000), 0.3, training=True)
report(seeded_same=torch.equal(a, b), differs=not torch.equal(b, c), eval_same=torch.equal(e1, e2), e=e1.detach(),
       frac=abs((drop == 0).float().mean().item() - 0.3) < 0.02, scale=sorted(drop.unique().tolist()),
       noop=torch.equal(nn.functional.dropout(h, 0.5, training=False), h), train_flag=[m.training, m[1].training])
