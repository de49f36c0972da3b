import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)), seed=1)
ref = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)), seed=1)
optimizer_dict = {p: torch.optim.Adam([p], foreach=False) for p in model.parameters()}


def optimizer_hook(parameter) -> None:
    optimizer_dict[parameter].step()
    optimizer_dict[parameter].zero_grad()


for p in model.parameters():
    p.register_post_accumulate_grad_hook(optimizer_hook)
ref_opt = torch.optim.Adam(ref.parameters())
x, y = data(6, 4, seed=2), data(6, 2, seed=3)
for _ in range(3):
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    ref_opt.zero_grad()
    nn.functional.mse_loss(ref(x), y).backward()
    ref_opt.step()
report(w=model[0].weight[0], same=[torch.allclose(a, b, atol=1e-6) for a, b in zip(model.parameters(), ref.parameters())],
       grads=[p.grad for p in model.parameters()][:1], loss=loss)
