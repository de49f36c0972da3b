import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


t = torch.rand(2, 10, device="meta")
t_info = [t.shape, t.is_meta, str(t.device)]
with torch.device("meta"):
    net = Net()
    inp = torch.randn((1024, 3, 32, 32))
shapes = []


def fw_hook(module, input, output):
    shapes.append(f"Shape of output to {module} is {output.shape}.")


for name, module in net.named_modules():
    module.register_forward_hook(fw_hook)
out = net(inp)
report(t_info=t_info, shapes=shapes, out=[out.shape, out.device.type], params_meta=all(p.is_meta for p in net.parameters()))
