import torch
import torch.nn as nn


class Split(nn.Module):
    def __init__(self):
        super().__init__()
        self.seq1 = nn.Sequential(nn.Linear(4, 6), nn.ReLU()).to("cpu")
        self.seq2 = nn.Sequential(nn.Linear(6, 2)).to("cpu")

    def forward(self, x):
        return self.seq2(self.seq1(x.to("cpu")).to("cpu"))


m = det(Split())
x = data(5, 4)
splits = iter(x.split(2, dim=0))
s_next = next(splits)
s_prev = m.seq1(s_next)
ret = []
for s_next in splits:
    ret.append(m.seq2(s_prev))
    s_prev = m.seq1(s_next)
ret.append(m.seq2(s_prev))
out = torch.cat(ret)
report(out=out, same=torch.allclose(out, m(x), atol=1e-6), n=len(ret))
