import torch
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(6, 10), nn.ReLU(), nn.Linear(10, 4)))
x = data(12, 6)
y = (data(12, 4, seed=3) > 0.3).float()
crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 0.5, 3.0]), reduction="mean")
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for _ in range(5):
    loss = crit(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
with torch.inference_mode():  # is_inference() of what it makes: a documented difference, left out
    probs = torch.sigmoid(model(x))
preds = (probs >= 0.5).int()
tp = (preds * y).sum(0); fp = (preds * (1 - y)).sum(0); fn = ((1 - preds) * y).sum(0)
prec = tp / (tp + fp).clamp(min=1e-8); rec = tp / (tp + fn).clamp(min=1e-8)
f1 = 2 * prec * rec / (prec + rec + 1e-8)
micro = 2 * tp.sum() / (2 * tp.sum() + fp.sum() + fn.sum())
subset_acc = (preds == y.int()).all(dim=1).float().mean()
hamming = (preds != y).float().mean()
bce_manual = -(y * torch.log(probs) + (1 - y) * torch.log(1 - probs)).mean()
report(loss=loss, f1=f1, micro=micro, subset=subset_acc, hamming=hamming, preds_dtype=preds.dtype, tp_dtype=tp.dtype, bce=bce_manual,
       f=nn.functional.binary_cross_entropy(probs, y, weight=torch.tensor([1.0, 1.0, 2.0, 1.0])))
