import torch
import torch.nn as nn


class SomeModule(torch.nn.Module):
    def __init__(self, size):
        super().__init__()
        self.linears = nn.ModuleList([nn.Linear(size, size) for i in range(3)])

    def forward(self, x):
        return self.linears[0](x)


m = det(SomeModule(8), seed=1)
torch.save(m.state_dict(), 'checkpoint.pth')
state_dict = torch.load('checkpoint.pth', mmap=True, weights_only=True)
with torch.device('meta'):
    meta_m = SomeModule(8)
was_meta = meta_m.linears[0].weight.is_meta
meta_m.load_state_dict(state_dict, assign=True)
x = data(2, 8, seed=2)
out = meta_m(x)
with torch.device('meta'):
    new_m = SomeModule(8)
new_m = new_m.to_empty(device='cpu')
new_m.load_state_dict(state_dict)
report(was_meta=was_meta, is_meta=meta_m.linears[0].weight.is_meta, out=out, same=torch.equal(new_m(x), out),
       param=isinstance(meta_m.linears[0].weight, nn.Parameter), rg=meta_m.linears[0].weight.requires_grad)
