import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.ones(1000)
d = nn.Dropout(p=0.25)
y = d(x)
vals = sorted(set(y.tolist()))
d.eval()
z = d(x)
a = F.dropout(x, 0.5, training=False)
x2 = torch.ones(4, 8, 3, 3)
d2 = nn.Dropout2d(0.5)(x2)
chan_const = bool(((d2 == 0).all((2, 3)) | (d2 == 2).all((2, 3))).all())
ad = nn.AlphaDropout(0.2).eval()(x)
report(vals=vals, frac_ok=abs((y == 0).float().mean().item() - 0.25) < 0.06, z=torch.equal(z, x), a=torch.equal(a, x), chan=chan_const, ad=torch.equal(ad, x))
