import torch
import torch.nn as nn
import torch.nn.functional as F

x = data(2, 3, 4, 4, seed=198)
r = {}
for cls in (nn.Dropout, nn.Dropout1d, nn.Dropout2d, nn.AlphaDropout, nn.FeatureAlphaDropout):
    m = cls(0.3)
    m.eval()
    inp = x[:, :, 0] if cls is nn.Dropout1d else x
    r[cls.__name__] = torch.equal(m(inp), inp)
torch.manual_seed(0)
d2 = nn.Dropout2d(0.5)(torch.ones(4, 6, 3, 3))
r["d2_channel_whole"] = bool(((d2 == 0).flatten(2).all(2) | (d2 != 0).flatten(2).all(2)).all())
r["d2_vals"] = sorted(set(d2.unique().tolist()))
r["f_train_false"] = torch.equal(F.dropout(x, 0.9, training=False), x)
r["p1"] = F.dropout(torch.ones(5), p=1.0)
r["inplace"] = nn.Dropout(0.0, inplace=True)(torch.ones(2))
report(**r)
