import torch
import torch.nn as nn

enc = nn.Sequential(nn.Conv2d(1, 4, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(4, 8, 4, 2, 1), nn.LeakyReLU(0.2))
dec = nn.Sequential(nn.ConvTranspose2d(8, 4, 4, 2, 1), nn.ReLU(), nn.ConvTranspose2d(4, 1, 3, 2, 1, output_padding=1),
                    nn.Sigmoid())
det(enc, 0, 0.3)
det(dec, 1, 0.3)
x = torch.sigmoid(data(3, 1, 16, 16))
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.RMSprop(params, lr=1e-3, alpha=0.9, eps=1e-6, momentum=0.5, centered=True)
hist = []
for _ in range(4):
    opt.zero_grad()
    rec = dec(enc(x))
    loss = nn.functional.binary_cross_entropy(rec, x, reduction="sum") / x.size(0)
    loss.backward()
    opt.step()
    hist.append(loss.item())
report(hist=hist, rec=rec.shape, code=enc(x).shape)
