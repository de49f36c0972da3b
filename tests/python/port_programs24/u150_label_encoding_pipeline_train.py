import torch
import torch.nn as nn

raw = [("red", "S", 1.5), ("blue", "M", 2.0), ("green", "L", 0.5), ("red", "M", 3.0), ("blue", "S", 1.0), ("green", "M", 2.5)]
colors = sorted({r[0] for r in raw})
sizes = ["S", "M", "L"]
c_idx = torch.tensor([colors.index(r[0]) for r in raw])
s_ord = torch.tensor([sizes.index(r[1]) for r in raw], dtype=torch.float32)
num = torch.tensor([r[2] for r in raw])
X = torch.cat([nn.functional.one_hot(c_idx, len(colors)).float(), (s_ord / 2).unsqueeze(1), ((num - num.mean()) / num.std()).unsqueeze(1)], 1)
y = torch.tensor([1.0, 0.0, 0.0, 1.0, 0.0, 1.0])
model = det(nn.Linear(X.shape[1], 1))
opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=10)


def closure():
    opt.zero_grad()
    loss = nn.functional.binary_cross_entropy_with_logits(model(X).squeeze(1), y) + 0.01 * model.weight.pow(2).sum()
    loss.backward()
    return loss


losses = [opt.step(closure).item() for _ in range(3)]
report(X=X, colors=colors, losses=losses, w=model.weight, p=torch.sigmoid(model(X)).squeeze(1))
