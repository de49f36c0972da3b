import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.dropout1 = nn.Dropout(0.0)
        self.fc1 = nn.Linear(8 * 2 * 2, 16)
        self.fc2 = nn.Linear(16, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(self.dropout1(x), 1)
        return F.log_softmax(self.fc2(F.relu(self.fc1(x))), dim=1)


model = det(Net(), scale=0.3)
ds = TensorDataset(data(12, 1, 8, 8, seed=1), ints(10, 12, seed=2))
loader = DataLoader(ds, batch_size=4, shuffle=False)
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
log = []
for epoch in range(1, 3):
    model.train()
    for batch_idx, (d, t) in enumerate(loader):
        optimizer.zero_grad()
        loss = F.nll_loss(model(d), t)
        loss.backward()
        optimizer.step()
        log.append(f"Train Epoch: {epoch} [{batch_idx * len(d)}/{len(loader.dataset)} ({100. * batch_idx / len(loader):.0f}%)]\tLoss: {loss.item():.6f}")
    scheduler.step()
model.eval()
test_loss, correct = 0, 0
with torch.no_grad():
    for d, t in loader:
        out = model(d)
        test_loss += F.nll_loss(out, t, reduction="sum").item()
        correct += out.argmax(dim=1, keepdim=True).eq(t.view_as(out.argmax(dim=1, keepdim=True))).sum().item()
report(log=log, test_loss=test_loss / 12, correct=correct)
