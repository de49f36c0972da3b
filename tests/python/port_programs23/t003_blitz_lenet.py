import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, input):
        c1 = F.relu(self.conv1(input))
        s2 = F.max_pool2d(c1, (2, 2))
        c3 = F.relu(self.conv2(s2))
        s4 = F.max_pool2d(c3, 2)
        s4 = torch.flatten(s4, 1)
        f5 = F.relu(self.fc1(s4))
        f6 = F.relu(self.fc2(f5))
        output = self.fc3(f6)
        return output


net = det(Net(), scale=0.1)
params = list(net.parameters())
input = data(1, 1, 32, 32)
out = net(input)
net.zero_grad()
out.backward(data(1, 10, seed=3))
conv1_bias_grad = net.conv1.bias.grad.clone()
output = net(input)
target = data(10, seed=4)
target = target.view(1, -1)
criterion = nn.MSELoss()
loss = criterion(output, target)
fns = [type(loss.grad_fn).__name__, type(loss.grad_fn.next_functions[0][0]).__name__]
net.zero_grad()
before = net.conv1.bias.grad
loss.backward()
after = net.conv1.bias.grad
learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)
import torch.optim as optim
optimizer = optim.SGD(net.parameters(), lr=0.01)
losses = []
for _ in range(3):
    optimizer.zero_grad()
    output = net(input)
    loss = criterion(output, target)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
report(n_params=len(params), p0=params[0].size(), out=out, conv1_bias_grad=conv1_bias_grad, fns=fns,
       before=before, after=after, losses=losses)
