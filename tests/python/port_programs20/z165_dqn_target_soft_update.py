import copy
import torch
import torch.nn as nn

policy = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)))
target = copy.deepcopy(policy)
target.load_state_dict(policy.state_dict())
target.eval()
opt = torch.optim.AdamW(policy.parameters(), lr=1e-3, amsgrad=True)
s, a, r, s2, done = data(6, 4), ints(2, 6), data(6), data(6, 4, seed=5), torch.tensor([0, 0, 1, 0, 1, 0], dtype=torch.bool)
gamma, tau = 0.99, 0.1
for _ in range(3):
    q = policy(s).gather(1, a.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        next_v = torch.zeros(6)
        next_v[~done] = target(s2[~done]).max(1).values
    expected = r + gamma * next_v
    loss = nn.SmoothL1Loss()(q, expected)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy.parameters(), 100)
    opt.step()
    tsd, psd = target.state_dict(), policy.state_dict()
    for key in psd:
        tsd[key] = psd[key] * tau + tsd[key] * (1 - tau)
    target.load_state_dict(tsd)
report(loss=loss.item(), tw=target[0].weight.sum(), pw=policy[0].weight.sum(), act=policy(s).max(1).indices)
