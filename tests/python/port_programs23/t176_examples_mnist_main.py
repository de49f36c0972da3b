import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, 1)
        self.conv2 = nn.Conv2d(8, 16, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(16 * 5 * 5, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output


class NoDropout:
    log = []


def train(args, model, device, train_loader, optimizer, epoch):
    model.train()
    model.dropout1.p = 0.0
    model.dropout2.p = 0.0
    for batch_idx, (data_, target) in enumerate(train_loader):
        data_, target = data_.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data_)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % args['log_interval'] == 0:
            NoDropout.log.append('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data_), len(train_loader.dataset), 100. * batch_idx / len(train_loader), loss.item()))


def test(model, device, test_loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data_, target in test_loader:
            data_, target = data_.to(device), target.to(device)
            output = model(data_)
            test_loss += F.nll_loss(output, target, reduction='sum').item()
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    test_loss /= len(test_loader.dataset)
    NoDropout.log.append('Test set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)'.format(
        test_loss, correct, len(test_loader.dataset), 100. * correct / len(test_loader.dataset)))


device = torch.device("cpu")
train_ds = torch.utils.data.TensorDataset((data(24, 1, 14, 14, seed=1) - 0.1307) / 0.3081, ints(10, 24, seed=2))
test_ds = torch.utils.data.TensorDataset((data(12, 1, 14, 14, seed=3) - 0.1307) / 0.3081, ints(10, 12, seed=4))
train_loader = torch.utils.data.DataLoader(train_ds, batch_size=8)
test_loader = torch.utils.data.DataLoader(test_ds, batch_size=6)
model = det(Net().to(device), scale=0.1)
optimizer = optim.Adadelta(model.parameters(), lr=1.0)
scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
for epoch in range(1, 3):
    train({'log_interval': 1}, model, device, train_loader, optimizer, epoch)
    test(model, device, test_loader)
    scheduler.step()
report(log=NoDropout.log, lr=optimizer.param_groups[0]['lr'])
