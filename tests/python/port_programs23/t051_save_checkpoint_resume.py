import torch
import torch.nn as nn
import torch.optim as optim


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 12)
        self.fc2 = nn.Linear(12, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


x, y = data(10, 6, seed=1), ints(3, 10, seed=2)
net = det(Net(), seed=3)
optimizer = optim.Adam(net.parameters(), lr=0.01)
criterion = nn.CrossEntropyLoss()


def train(model, opt, steps):
    out = []
    for _ in range(steps):
        opt.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        opt.step()
        out.append(loss.item())
    return out


first = train(net, optimizer, 3)
EPOCH = 5
PATH = "model.pt"
LOSS = 0.4
torch.save({
    'epoch': EPOCH,
    'model_state_dict': net.state_dict(),
    'optimizer_state_dict': optimizer.state_dict(),
    'loss': LOSS,
}, PATH)
cont = train(net, optimizer, 3)
model = Net()
opt2 = optim.Adam(model.parameters(), lr=0.5)
checkpoint = torch.load(PATH, weights_only=True)
model.load_state_dict(checkpoint['model_state_dict'])
opt2.load_state_dict(checkpoint['optimizer_state_dict'])
epoch = checkpoint['epoch']
loss = checkpoint['loss']
model.train()
resumed = train(model, opt2, 3)
report(first=first, cont=cont, resumed=resumed, epoch=epoch, loss=loss, lr=opt2.param_groups[0]['lr'],
       step=opt2.state_dict()['state'][0]['step'])
