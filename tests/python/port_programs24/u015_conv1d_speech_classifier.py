import torch
import torch.nn as nn
import torch.nn.functional as F


class M5(nn.Module):
    def __init__(self, n_in=1, n_out=3, stride=4, ch=8):
        super().__init__()
        self.conv1 = nn.Conv1d(n_in, ch, kernel_size=20, stride=stride)
        self.bn1 = nn.BatchNorm1d(ch)
        self.pool1 = nn.MaxPool1d(4)
        self.conv2 = nn.Conv1d(ch, ch, kernel_size=3)
        self.bn2 = nn.BatchNorm1d(ch)
        self.pool2 = nn.MaxPool1d(4)
        self.fc1 = nn.Linear(ch, n_out)

    def forward(self, x):
        x = self.pool1(F.relu(self.bn1(self.conv1(x))))
        x = self.pool2(F.relu(self.bn2(self.conv2(x))))
        x = F.avg_pool1d(x, x.shape[-1])
        x = x.permute(0, 2, 1)
        return F.log_softmax(self.fc1(x), dim=2)


model = det(M5())
wave = data(4, 1, 400)
labels = torch.tensor([0, 2, 1, 2])
opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=0.0001)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
hist = []
for epoch in range(4):
    model.train()
    out = model(wave)
    loss = F.nll_loss(out.squeeze(), labels)
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    hist.append(loss.item())
model.eval()
with torch.no_grad():
    pred = model(wave).argmax(dim=-1).squeeze()
report(hist=hist, pred=pred, lr=sched.get_last_lr(), n_params=sum(p.numel() for p in model.parameters() if p.requires_grad))
