import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 2)))
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)


@torch.compile
def train_step(x, y):
    opt.zero_grad(set_to_none=True)
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    return loss


@torch.compile(fullgraph=True)
def predict(x):
    with torch.no_grad():
        return model(x).softmax(-1)


x, y = data(6, 4), ints(2, 6)
ls = [train_step(x, y).item() for _ in range(4)]
report(ls=ls, p=predict(x), w=model[2].weight)
