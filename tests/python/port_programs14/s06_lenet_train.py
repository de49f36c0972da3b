import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = F.max_pool2d(torch.tanh(self.conv1(x)), 2)
        x = F.max_pool2d(torch.tanh(self.conv2(x)), 2)
        x = x.view(x.size(0), -1)
        return self.fc2(torch.tanh(self.fc1(x)))


model = det(LeNet(), scale=0.1)
ds = TensorDataset(data(16, 1, 28, 28), ints(10, 16))
loader = DataLoader(ds, batch_size=5, shuffle=False, drop_last=False)
opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.8, 0.99), eps=1e-7, weight_decay=1e-4, amsgrad=True)
hist = []
for xb, yb in loader:
    opt.zero_grad(set_to_none=True)
    loss = nn.CrossEntropyLoss(label_smoothing=0.1)(model(xb), yb)
    loss.backward()
    opt.step()
    hist.append(round(loss.item(), 5))
correct = 0
with torch.inference_mode():
    for xb, yb in loader:
        correct += (model(xb).argmax(1) == yb).sum().item()
report(hist=hist, correct=correct, nb=len(loader), step=opt.state[model.fc2.weight]["step"])
