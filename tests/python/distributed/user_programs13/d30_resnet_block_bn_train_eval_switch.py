import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))

class ResNetTiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 4, 3, 1, 1, bias=False), nn.BatchNorm2d(4), nn.ReLU(inplace=True))
        self.layer1 = BasicBlock(4, 4)
        self.layer2 = BasicBlock(4, 8, 2)
        self.fc = nn.Linear(8, 3)
    def forward(self, x):
        x = self.layer2(self.layer1(self.stem(x)))
        return self.fc(meshflow.flatten(F.adaptive_avg_pool2d(x, (1, 1)), 1))

dist.init_process_group("gloo")
rank = dist.get_rank()
net = ResNetTiny()
g = np.random.default_rng(30)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
for m in net.modules():
    if isinstance(m, nn.BatchNorm2d):
        nn.init.ones_(m.weight); nn.init.zeros_(m.bias)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
rng = np.random.default_rng(300 + rank)
log = []
for epoch in range(2):
    model.train()
    for _ in range(2):
        x = meshflow.from_numpy(rng.standard_normal((4, 3, 8, 8)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 3, 4))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
    model.eval()
    correct = meshflow.zeros(()); n = meshflow.zeros(())
    with meshflow.no_grad():
        xv = meshflow.from_numpy(np.random.default_rng(301 + rank).standard_normal((5, 3, 8, 8)).astype(np.float32))
        yv = meshflow.from_numpy(np.random.default_rng(302 + rank).integers(0, 3, 5))
        out = model(xv)
        correct += (out.argmax(1) == yv).sum(); n += 5
    dist.all_reduce(correct); dist.all_reduce(n)
    log.append([round(loss.item(), 4), correct.item() / n.item(), round(out.sum().item(), 4)])
print("RESULT", rank, json.dumps({"log": log, "rm": round(net.layer2.shortcut[1].running_mean.sum().item(), 4),
                                  "nbt": int(net.stem[1].num_batches_tracked)}))
dist.destroy_process_group()
