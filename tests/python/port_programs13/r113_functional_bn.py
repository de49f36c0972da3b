import torch
import torch.nn.functional as F
x = data(6, 3, 4)
rm, rv = torch.zeros(3), torch.ones(3)
y = F.batch_norm(x, rm, rv, weight=torch.tensor([1.0, 2.0, 0.5]), bias=torch.zeros(3), training=True, momentum=0.2)
y2 = F.batch_norm(x, rm, rv, training=False)
ln = F.layer_norm(x, (3, 4))
ln2 = F.layer_norm(x, (4,), weight=torch.full((4,), 2.0), eps=1e-3)
gn = F.group_norm(x, 1)
inn = F.instance_norm(x)
lnn = torch.nn.LayerNorm([3, 4], bias=False)(x)
rms = F.rms_norm(x, (4,), eps=1e-6) if hasattr(F, "rms_norm") else None
report(y=y[0, :, 0], rm=rm, rv=rv, y2=y2[1, 1], ln=ln[0, 0], ln2=ln2[2, 2], gn=gn[3, 1], inn=inn[4, 2], lnn=lnn[5, 0], rms=rms[0, 0])
