import torch
import torch.nn as nn
from torch.nn.utils import weight_norm
class Chomp1d(nn.Module):
    def __init__(self, chomp_size):
        super(Chomp1d, self).__init__(); self.chomp_size = chomp_size
    def forward(self, x):
        return x[:, :, :-self.chomp_size].contiguous()
class TemporalBlock(nn.Module):
    def __init__(self, n_inputs, n_outputs, kernel_size, stride, dilation, padding, dropout=0.0):
        super(TemporalBlock, self).__init__()
        self.conv1 = weight_norm(nn.Conv1d(n_inputs, n_outputs, kernel_size, stride=stride, padding=padding, dilation=dilation))
        self.chomp1 = Chomp1d(padding); self.relu1 = nn.ReLU(); self.dropout1 = nn.Dropout(dropout)
        self.conv2 = weight_norm(nn.Conv1d(n_outputs, n_outputs, kernel_size, stride=stride, padding=padding, dilation=dilation))
        self.chomp2 = Chomp1d(padding); self.relu2 = nn.ReLU(); self.dropout2 = nn.Dropout(dropout)
        self.net = nn.Sequential(self.conv1, self.chomp1, self.relu1, self.dropout1, self.conv2, self.chomp2, self.relu2, self.dropout2)
        self.downsample = nn.Conv1d(n_inputs, n_outputs, 1) if n_inputs != n_outputs else None
        self.relu = nn.ReLU()
    def forward(self, x):
        out = self.net(x)
        res = x if self.downsample is None else self.downsample(x)
        return self.relu(out + res)
class TCN(nn.Module):
    def __init__(self, num_inputs, num_channels, kernel_size=2):
        super().__init__()
        layers = []
        for i in range(len(num_channels)):
            d = 2 ** i
            inc = num_inputs if i == 0 else num_channels[i - 1]
            layers += [TemporalBlock(inc, num_channels[i], kernel_size, stride=1, dilation=d, padding=(kernel_size - 1) * d)]
        self.network = nn.Sequential(*layers)
        self.linear = nn.Linear(num_channels[-1], 1)
    def forward(self, x):
        y = self.network(x)
        return self.linear(y[:, :, -1])
model = det(TCN(2, [6, 6, 6], kernel_size=3), scale=0.3)
t = torch.linspace(0, 6.28, 40)
series = torch.stack([torch.sin(t), torch.cos(2 * t)])
X = torch.stack([series[:, i:i + 20] for i in range(16)])
Y = torch.stack([series[0, i + 20] for i in range(16)]).unsqueeze(1)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
crit = nn.MSELoss()
losses = []
for ep in range(7):
    opt.zero_grad(); loss = crit(model(X), Y); loss.backward(); opt.step(); sched.step(); losses.append(loss.item())
names = sorted(n for n, _ in model.named_parameters())[:4]
report(losses=losses, names=names, g=model.network[0].conv1.weight_g.flatten()[:4], lr=sched.get_last_lr(), pred=model(X[:3]))
