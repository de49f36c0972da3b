import copy
from collections import deque, namedtuple
import torch
import torch.nn as nn
import torch.nn.functional as F

Transition = namedtuple("Transition", ("state", "action", "next_state", "reward", "done"))


class QNet(nn.Module):
    def __init__(self, n_obs, n_act):
        super().__init__()
        self.layer1 = nn.Linear(n_obs, 32)
        self.layer2 = nn.Linear(32, n_act)

    def forward(self, x):
        return self.layer2(F.relu(self.layer1(x)))


policy_net = det(QNet(3, 2))
target_net = copy.deepcopy(policy_net)
target_net.load_state_dict(policy_net.state_dict())
opt = torch.optim.AdamW(policy_net.parameters(), lr=1e-3, amsgrad=True)
memory = deque(maxlen=50)
S = data(10, 3)
for i in range(9):
    memory.append(Transition(S[i:i + 1], torch.tensor([[i % 2]]), S[i + 1:i + 2], torch.tensor([float(i % 3)]),
                             i == 8))
TAU = 0.1
hist = []
for step in range(3):
    batch = Transition(*zip(*list(memory)))
    non_final = torch.tensor([not d for d in batch.done], dtype=torch.bool)
    nxt = torch.cat([s for s, d in zip(batch.next_state, batch.done) if not d])
    state_b = torch.cat(batch.state)
    action_b = torch.cat(batch.action)
    reward_b = torch.cat(batch.reward)
    q = policy_net(state_b).gather(1, action_b)
    next_v = torch.zeros(len(memory))
    with torch.no_grad():
        next_v[non_final] = target_net(nxt).max(1).values
    expected = next_v * 0.9 + reward_b
    loss = nn.SmoothL1Loss()(q, expected.unsqueeze(1))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    opt.step()
    tsd, psd = target_net.state_dict(), policy_net.state_dict()
    for key in psd:
        tsd[key] = psd[key] * TAU + tsd[key] * (1 - TAU)
    target_net.load_state_dict(tsd)
    hist.append(loss.item())
report(hist=hist, t=target_net.layer2.bias, amsgrad=sorted(opt.state[policy_net.layer1.weight].keys()))
