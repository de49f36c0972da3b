import random
from collections import deque, namedtuple
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
Transition = namedtuple("Transition", ("state", "action", "next_state", "reward", "done"))
class ReplayMemory:
    def __init__(self, cap):
        self.memory = deque([], maxlen=cap)
    def push(self, *args):
        self.memory.append(Transition(*args))
    def sample(self, n):
        return [self.memory[i] for i in range(len(self.memory) - n, len(self.memory))]
    def __len__(self):
        return len(self.memory)
policy = det(nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2)))
target = copy.deepcopy(policy)
target.load_state_dict(policy.state_dict())
target.eval()
opt = torch.optim.AdamW(policy.parameters(), lr=1e-3, amsgrad=True)
mem = ReplayMemory(50)
S = data(40, 4); R = data(40, seed=3)
for t in range(39):
    s = S[t].unsqueeze(0)
    with torch.no_grad():
        a = policy(s).max(1).indices.view(1, 1)
    mem.push(s, a, S[t + 1].unsqueeze(0), torch.tensor([R[t].item()]), t % 10 == 9)
losses = []
for step in range(5):
    batch = Transition(*zip(*mem.sample(16)))
    non_final = torch.tensor(tuple(not d for d in batch.done), dtype=torch.bool)
    nfs = torch.cat([s for s, d in zip(batch.next_state, batch.done) if not d])
    sb, ab, rb = torch.cat(batch.state), torch.cat(batch.action), torch.cat(batch.reward)
    q = policy(sb).gather(1, ab)
    nv = torch.zeros(16)
    with torch.no_grad():
        nv[non_final] = target(nfs).max(1).values
    expected = nv * 0.99 + rb
    loss = nn.SmoothL1Loss()(q, expected.unsqueeze(1))
    opt.zero_grad(); loss.backward()
    torch.nn.utils.clip_grad_value_(policy.parameters(), 100)
    opt.step()
    tsd, psd = target.state_dict(), policy.state_dict()
    for k in psd:
        tsd[k] = psd[k] * 0.005 + tsd[k] * (1 - 0.005)
    target.load_state_dict(tsd)
    losses.append(loss.item())
report(losses=losses, n=len(mem), nf=int(non_final.sum()), acts=ab.flatten(), w=target[2].bias)
