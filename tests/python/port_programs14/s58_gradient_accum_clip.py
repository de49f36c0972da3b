import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1)))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X, Y = data(12, 5), data(12, 1, seed=3)
accum = 3
norms = []
for i, (xb, yb) in enumerate(zip(X.split(2), Y.split(2))):
    loss = nn.functional.mse_loss(model(xb), yb) / accum
    loss.backward()
    if (i + 1) % accum == 0:
        total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5, norm_type=2.0)
        nn.utils.clip_grad_value_(model.parameters(), clip_value=0.05)
        norms.append(total.item())
        opt.step()
        opt.zero_grad()
inf_norm = nn.utils.clip_grad_norm_([nn.Parameter(torch.ones(2))], 1.0, norm_type="inf")
vec = nn.utils.parameters_to_vector(model.parameters())
nn.utils.vector_to_parameters(vec * 2, model.parameters())
report(norms=norms, w=model[2].weight[0, :4], nvec=vec.numel(), inf_norm=inf_norm, grad_none=[p.grad is None for p in model.parameters()])
