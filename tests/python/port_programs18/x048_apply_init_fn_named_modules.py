import torch
import torch.nn as nn


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.1)
        if m.bias is not None:
            nn.init.zeros_(m.bias)
    elif isinstance(m, nn.LayerNorm):
        nn.init.ones_(m.weight)
        nn.init.constant_(m.bias, 0.5)
    elif isinstance(m, nn.Embedding):
        nn.init.eye_(m.weight) if m.weight.shape[0] == m.weight.shape[1] else nn.init.zeros_(m.weight)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(4, 4)
        self.blocks = nn.ModuleList([nn.Sequential(nn.Linear(4, 4), nn.LayerNorm(4)) for _ in range(2)])
        self.head = nn.Linear(4, 2, bias=False)

    def forward(self, i):
        h = self.emb(i)
        for b in self.blocks:
            h = h + b(h)
        return self.head(h)


m = Net()
m.apply(init_weights)
names = [n for n, _ in m.named_modules()]
lin = [n for n, mod in m.named_modules() if isinstance(mod, nn.Linear)]
out = m(torch.tensor([0, 3]))
for n, p in m.named_parameters():
    if "blocks.1" in n:
        p.data.mul_(2)
report(names=names, lin=lin, out=out, out2=m(torch.tensor([1])), buffers=[n for n, _ in m.named_buffers()],
       children=[n for n, _ in m.named_children()])
