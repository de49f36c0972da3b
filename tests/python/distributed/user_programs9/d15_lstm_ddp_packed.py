import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
from meshflow.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
class Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(3, 4, batch_first=True, num_layers=1)
        self.fc = nn.Linear(4, 1)
    def forward(self, x, lengths):
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        out, (h, c) = self.lstm(packed)
        return self.fc(h[-1])
net = Seq(); init_(net, 15)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(150 + rank)
for _ in range(3):
    x = mf.from_numpy(rng.standard_normal((3, 5, 3)).astype(np.float32))
    lengths = mf.tensor([5, 2, 4])
    loss = model(x, lengths).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps([p.sum().item() for p in net.parameters()]))
dist.destroy_process_group()
