import torch
import torch.nn as nn
# TOL 1e-2
# the bias before BatchNorm has a gradient that is 0 but for rounding, which Adam scales to lr: values agree to lr

model = det(nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 25, 3)))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
cmodel = torch.compile(model, mode="reduce-overhead", fullgraph=False, dynamic=False)
x = data(4, 2, 5, 5)
y = ints(3, 4)
hist = []
for step in range(3):
    opt.zero_grad(set_to_none=True)
    loss = nn.functional.cross_entropy(cmodel(x), y)
    loss.backward()
    opt.step()
    hist.append(loss.item())
model.eval()
with torch.inference_mode():
    pred = cmodel(x)
report(hist=hist, pred=pred, rm=model[1].running_mean)
