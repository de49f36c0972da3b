import torch

n_atoms, v_min, v_max = 7, -3.0, 3.0
support = torch.linspace(v_min, v_max, n_atoms)
delta_z = (v_max - v_min) / (n_atoms - 1)
next_dist = torch.softmax(data(4, n_atoms), dim=1)
rewards = torch.tensor([1.0, -0.5, 0.0, 2.5])
dones = torch.tensor([0.0, 1.0, 0.0, 0.0])
gamma = 0.9
Tz = (rewards.unsqueeze(1) + (1 - dones).unsqueeze(1) * gamma * support.unsqueeze(0)).clamp(v_min, v_max)
b = (Tz - v_min) / delta_z
l, u = b.floor().long(), b.ceil().long()
l[(u > 0) & (l == u)] -= 1
u[(l < (n_atoms - 1)) & (l == u)] += 1
proj = torch.zeros(4, n_atoms)
offset = (torch.arange(4) * n_atoms).unsqueeze(1).expand(4, n_atoms)
proj.view(-1).index_add_(0, (l + offset).view(-1), (next_dist * (u.float() - b)).view(-1))
proj.view(-1).index_add_(0, (u + offset).view(-1), (next_dist * (b - l.float())).view(-1))
logits = data(4, n_atoms, seed=5).requires_grad_()
loss = -(proj * torch.log_softmax(logits, 1)).sum(1).mean()
loss.backward()
report(proj=proj, sums=proj.sum(1), l=l[1], u=u[1], loss=loss.item(), q=(proj * support).sum(1))
