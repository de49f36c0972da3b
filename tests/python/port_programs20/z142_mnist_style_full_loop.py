import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import TensorDataset, DataLoader


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.dropout1 = nn.Dropout(0.0)
        self.dropout2 = nn.Dropout(0.0)
        self.fc1 = nn.Linear(8 * 2 * 2, 16)
        self.fc2 = nn.Linear(16, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.dropout2(x)
        return F.log_softmax(self.fc2(x), dim=1)


def train(model, device, loader, optimizer, epoch, log):
    model.train()
    for batch_idx, (data_, target) in enumerate(loader):
        data_, target = data_.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data_)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % 2 == 0:
            log.append(f"Train Epoch: {epoch} [{batch_idx * len(data_)}/{len(loader.dataset)}]\tLoss: {loss.item():.6f}")


def test(model, device, loader):
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        for data_, target in loader:
            output = model(data_.to(device))
            test_loss += F.nll_loss(output, target.to(device), reduction="sum").item()
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    return test_loss / len(loader.dataset), correct


device = torch.device("cpu")
model = det(Net(), scale=0.3).to(device)
ds = TensorDataset(data(12, 1, 8, 8), ints(10, 12))
loader = DataLoader(ds, batch_size=4)
optimizer = optim.Adadelta(model.parameters(), lr=1.0)
scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
log, results = [], []
for epoch in range(1, 3):
    train(model, device, loader, optimizer, epoch, log)
    results.append(test(model, device, loader))
    scheduler.step()
torch.save(model.state_dict(), "mnist_cnn.pt")
report(log=log, results=results, lr=scheduler.get_last_lr())
