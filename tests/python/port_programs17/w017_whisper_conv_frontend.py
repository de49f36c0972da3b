import torch
import torch.nn as nn
import torch.nn.functional as F


class Frontend(nn.Module):
    def __init__(self, n_mels=4, d=6):
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, d, kernel_size=3, padding=1)
        self.conv2 = nn.Conv1d(d, d, kernel_size=3, stride=2, padding=1)
        self.register_buffer("positional_embedding", self.sinusoids(8, d))

    @staticmethod
    def sinusoids(length, channels, max_timescale=10000):
        log_timescale_increment = torch.log(torch.tensor(max_timescale)) / (channels // 2 - 1)
        inv_timescales = torch.exp(-log_timescale_increment * torch.arange(channels // 2))
        scaled_time = torch.arange(length)[:, None] * inv_timescales[None, :]
        return torch.cat([torch.sin(scaled_time), torch.cos(scaled_time)], dim=1)

    def forward(self, x):
        x = F.gelu(self.conv1(x))
        x = F.gelu(self.conv2(x))
        x = x.permute(0, 2, 1)
        return x + self.positional_embedding[: x.shape[1]]


m = det(Frontend())
x = data(2, 4, 15, seed=9)
y = m(x)
y.sum().backward()
report(y=y[0], shape=list(y.shape), pe=m.positional_embedding[:3], g=m.conv2.weight.grad[0, 0])
