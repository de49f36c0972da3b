import torch
import torch.nn as nn
import torch.nn.functional as F
class MovingAvg(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k
        self.avg = nn.AvgPool1d(kernel_size=k, stride=1, padding=0)
    def forward(self, x):
        front = x[:, 0:1, :].repeat(1, (self.k - 1) // 2, 1)
        end = x[:, -1:, :].repeat(1, (self.k - 1) // 2, 1)
        x = torch.cat([front, x, end], dim=1)
        return self.avg(x.permute(0, 2, 1)).permute(0, 2, 1)
class DLinear(nn.Module):
    def __init__(self, L=12, H=4, C=2):
        super().__init__()
        self.ma = MovingAvg(5)
        self.seasonal = nn.Linear(L, H)
        self.trend = nn.Linear(L, H)
    def forward(self, x):
        trend = self.ma(x)
        seasonal = x - trend
        return (self.seasonal(seasonal.permute(0, 2, 1)) + self.trend(trend.permute(0, 2, 1))).permute(0, 2, 1), trend
m = det(DLinear())
x = torch.cumsum(data(3, 12, 2), dim=1)
y, trend = m(x)
alt = F.avg_pool1d(F.pad(x.permute(0, 2, 1), (2, 2), mode="replicate"), 5, stride=1).permute(0, 2, 1)
F.l1_loss(y, x[:, -4:]).backward()
report(y=y[0], same=torch.allclose(trend, alt, atol=1e-6), trend=trend[1, :3], g=m.trend.weight.grad[0, :4])
