import torch
import torch.nn as nn

T, B, H = 40, 3, 4
t = torch.arange(T).float()
series = torch.stack([torch.sin(t / 3) * 5 + 20, torch.cos(t / 5) * 2 + 3, t * 0.1]) + 0.1 * data(B, T)
ctx, fut = series[:, :-H], series[:, -H:]
loc = ctx.mean(1, keepdim=True)
scale = ctx.std(1, keepdim=True).clamp(min=1e-3)
z = (ctx - loc) / scale
win = z.unfold(1, 8, 1)
X, Y = win[:, :-1].reshape(-1, 8), z[:, 8:].reshape(-1, 1)
model = det(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for _ in range(30):
    loss = nn.functional.mse_loss(model(X), Y)
    opt.zero_grad(); loss.backward(); opt.step()
hist = z[:, -8:]
preds = []
with torch.no_grad():
    for _ in range(H):
        nxt = model(hist)
        preds.append(nxt)
        hist = torch.cat([hist[:, 1:], nxt], 1)
fc = torch.cat(preds, 1) * scale + loc
naive_mae = (ctx[:, 1:] - ctx[:, :-1]).abs().mean(1)
mase = (fc - fut).abs().mean(1) / naive_mae
report(loss=loss.item(), fc=fc, mase=mase, X_shape=X.shape)
