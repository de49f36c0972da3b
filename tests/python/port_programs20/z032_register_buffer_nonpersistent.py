import torch
import torch.nn as nn


class PosEnc(nn.Module):
    def __init__(self, d, max_len=10):
        super().__init__()
        pe = torch.zeros(max_len, d)
        pos = torch.arange(0, max_len).unsqueeze(1).float()
        div = torch.exp(torch.arange(0, d, 2).float() * (-torch.log(torch.tensor(10000.0)) / d))
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0), persistent=False)
        self.register_buffer("steps", torch.tensor(0))
        self.register_buffer("maybe", None)

    def forward(self, x):
        self.steps += 1
        return x + self.pe[:, :x.size(1)]


m = PosEnc(4)
x = data(2, 3, 4)
y = m(x)
m(x)
sd = m.state_dict()
m2 = PosEnc(4)
m2.load_state_dict(sd)
m3 = m.double()
report(y=y, keys=list(sd.keys()), steps=m2.steps, bufs=[n for n, _ in m.named_buffers()], dt=m3.pe.dtype, sdt=m3.steps.dtype,
       maybe=m.maybe is None, pe_grad=m.pe.requires_grad)
