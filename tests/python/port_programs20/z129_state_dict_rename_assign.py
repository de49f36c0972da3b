import torch
import torch.nn as nn
from collections import OrderedDict

old = det(nn.Sequential(OrderedDict([("conv", nn.Conv1d(2, 3, 1)), ("bn", nn.BatchNorm1d(3))])))
sd = old.state_dict()
renamed = OrderedDict((k.replace("conv.", "encoder.0.").replace("bn.", "encoder.1."), v) for k, v in sd.items())
new = nn.Module()
new.encoder = nn.Sequential(nn.Conv1d(2, 3, 1), nn.BatchNorm1d(3))
res = new.load_state_dict(renamed, strict=True)
fresh = {k: v.clone() * 2 for k, v in new.state_dict().items()}
new.load_state_dict(fresh, assign=True)
x = data(2, 2, 4)
new.eval(); old.eval()
report(res=str(res), same=torch.allclose(new.encoder(x) * 1, new.encoder(x)), w=new.encoder[0].weight, is_param=isinstance(new.encoder[0].weight, nn.Parameter),
       rg=new.encoder[0].weight.requires_grad, keys=list(renamed.keys()))
