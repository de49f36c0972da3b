import torch
import torch.nn as nn

enc = nn.Sequential(nn.Conv2d(1, 4, 3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(4, 8, 3, stride=2, padding=1), nn.ReLU())
dec = nn.Sequential(nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1), nn.ReLU(),
                    nn.ConvTranspose2d(4, 1, 3, stride=2, padding=1, output_padding=1), nn.Sigmoid())
ae = det(nn.Sequential(enc, dec), scale=0.3)
x = torch.sigmoid(data(3, 1, 8, 8))
opt = torch.optim.Adam(ae.parameters(), lr=1e-2, weight_decay=1e-5)
ls = []
for _ in range(4):
    opt.zero_grad()
    out = ae(x)
    l = nn.functional.mse_loss(out, x)
    l.backward()
    opt.step()
    ls.append(l.item())
report(ls=ls, code=enc(x).shape, out=out.shape)
