import math
import torch
import torch.nn as nn


class SepConv1d(nn.Module):
    def __init__(self, c_in, c_out, k, stride=1, dilation=1):
        super().__init__()
        pad = (k - 1) * dilation // 2
        self.dw = nn.Conv1d(c_in, c_in, k, stride=stride, padding=pad, dilation=dilation, groups=c_in)
        self.pw = nn.Conv1d(c_in, c_out, 1)
        self.norm = nn.BatchNorm1d(c_out)
        self.act = nn.PReLU(c_out)

    def forward(self, x):
        return self.act(self.norm(self.pw(self.dw(x))))


class KWS(nn.Module):
    def __init__(self):
        super().__init__()
        self.front = nn.Conv1d(1, 8, kernel_size=9, stride=4, padding=4)
        self.body = nn.Sequential(SepConv1d(8, 8, 5), SepConv1d(8, 12, 5, dilation=2), SepConv1d(12, 12, 3, stride=2))
        self.pool = nn.AdaptiveMaxPool1d(1)
        self.fc = nn.Linear(12, 5)

    def forward(self, wav):
        h = self.body(torch.relu(self.front(wav.unsqueeze(1))))
        return self.fc(self.pool(h).squeeze(-1))


t = torch.linspace(0, 1, 128)
wav = torch.stack([torch.sin(2 * math.pi * f * t) for f in (3.0, 5.0, 11.0)]) + 0.1 * data(3, 128)
m = det(KWS(), scale=0.25)
logits = m(wav)
loss = nn.CrossEntropyLoss(reduction="sum")(logits, torch.tensor([0, 2, 4]))
loss.backward()
report(logits=logits, loss=loss, prelu_grad=m.body[0].act.weight.grad, gnorm=m.front.weight.grad.norm(),
       L=m.body[2].dw(torch.zeros(1, 12, 31)).shape[-1])
