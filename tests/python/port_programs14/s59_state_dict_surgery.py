import torch
import torch.nn as nn
from collections import OrderedDict

m = nn.Sequential(OrderedDict([("enc", nn.Linear(4, 3)), ("act", nn.ReLU()), ("head", nn.Linear(3, 2))]))
det(m)
sd = m.state_dict()
renamed = OrderedDict((k.replace("enc.", "backbone."), v) for k, v in sd.items())
m2 = nn.Sequential(OrderedDict([("backbone", nn.Linear(4, 3)), ("act", nn.ReLU()), ("head", nn.Linear(3, 5))]))
filtered = {k: v for k, v in renamed.items() if not k.startswith("head")}
res = m2.load_state_dict(filtered, strict=False)
for p in m2.backbone.parameters():
    p.requires_grad = False
trainable = [n for n, p in m2.named_parameters() if p.requires_grad]
m2.head = nn.Linear(3, 7)
x = data(2, 4)
same_backbone = torch.equal(m2.backbone(x), m.enc(x))
sd["enc.weight"].add_(1.0)
shared = m.enc.weight[0, 0].item() == sd["enc.weight"][0, 0].item()
report(missing=res.missing_keys, unexpected=res.unexpected_keys, trainable=trainable, same=same_backbone, out=m2(x).shape,
       shared=shared, children=[n for n, _ in m2.named_children()], mods=len(list(m2.modules())), sd_type=type(sd).__name__)
