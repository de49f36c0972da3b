import torch
import torch.nn as nn

m = det(nn.Linear(3, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
x, y = data(8, 3, seed=1), data(8, 1, seed=2)
lines = []
for epoch in range(1, 4):
    running = 0.0
    for i in range(0, 8, 4):
        loss = nn.functional.mse_loss(m(x[i:i + 4]), y[i:i + 4])
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
    lines.append(f"Epoch [{epoch}/3], Loss: {running / 2:.4f}, lr={opt.param_groups[0]['lr']:.1e}")
    lines.append("epoch %d loss %.5f" % (epoch, loss))
    lines.append("{:>8.3f}|{}".format(loss.item(), loss.dtype))
acc = torch.tensor(0.8333)
lines.append(f"acc {acc:.2%} {acc.item():.3f} {float(acc)}")
lines.append(str(m.weight.data))
lines.append(repr(loss.detach()))
lines.append(f"{m.weight.shape} {m.weight.size(1)} {m.weight.numel()}")
report(lines=lines)
