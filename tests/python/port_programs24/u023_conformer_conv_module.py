import torch
import torch.nn as nn


class ConvModule(nn.Module):
    def __init__(self, d, k=7):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.pw1 = nn.Conv1d(d, 2 * d, 1)
        self.glu = nn.GLU(dim=1)
        self.dw = nn.Conv1d(d, d, k, padding=k // 2, groups=d)
        self.bn = nn.BatchNorm1d(d)
        self.act = nn.SiLU()
        self.pw2 = nn.Conv1d(d, d, 1)

    def forward(self, x):  # (B, T, D)
        y = self.ln(x).transpose(1, 2)
        y = self.glu(self.pw1(y))
        y = self.act(self.bn(self.dw(y)))
        y = self.pw2(y).transpose(1, 2)
        return x + y


m = det(ConvModule(6))
x = data(2, 15, 6)
lengths = torch.tensor([15, 9])
mask = torch.arange(15)[None, :] < lengths[:, None]
y = m(x.masked_fill(~mask.unsqueeze(-1), 0.0))
loss = (y * mask.unsqueeze(-1)).pow(2).sum() / mask.sum()
loss.backward()
m.eval()
y_eval = m(x)
report(y=y.sum(dim=(1, 2)), loss=loss.item(), dw_grad=m.dw.weight.grad.shape, dwg=m.dw.weight.grad.abs().sum().item(),
       y_eval=y_eval[1, 0], groups=m.dw.groups)
