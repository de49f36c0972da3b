import torch
import torch.nn as nn
import torch.nn.functional as F
x = data(2, 4, 3, 3)
torch.manual_seed(0)
d2 = nn.Dropout2d(0.5)(x)
zeros_per_channel = (d2 == 0).flatten(2).all(-1) | (d2 != 0).flatten(2).all(-1)
ad = nn.AlphaDropout(0.2).eval()(x)
fd = F.dropout(x, 0.5, training=False)
fa = nn.FeatureAlphaDropout(0.2).eval()(x)
d1 = nn.Dropout1d(0.3)
d1.eval()
e = d1(data(2, 3, 5))
kept = F.dropout(torch.ones(4000), p=0.25)
inplace = torch.ones(10)
F.dropout(inplace, 0.5, training=True, inplace=True)
report(chan=bool(zeros_per_channel.all()), vals=sorted(set(d2[d2 != 0].div(x[d2 != 0]).round(decimals=4).tolist())), ad=torch.equal(ad, x), fd=fd is x or torch.equal(fd, x),
       fa=torch.equal(fa, x), e=e[0, 0], kept_scale=sorted(set(kept.tolist())), inpl=sorted(set(inplace.tolist())), mean_ok=abs(kept.mean().item() - 1) < 0.08)
