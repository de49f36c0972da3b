from collections import OrderedDict
import torch
import torch.nn as nn


class Old(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 4))
        self.head = nn.Linear(4, 5)


class New(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 4))
        self.classifier = nn.Linear(4, 2)
        self.register_buffer("scale", torch.ones(1))


old = det(Old())
wrapped = OrderedDict(("module." + k, v) for k, v in old.state_dict().items())
sd = OrderedDict()
for k, v in wrapped.items():
    k = k.removeprefix("module.")
    if k.startswith("backbone."):
        sd[k.replace("backbone.", "encoder.", 1)] = v
    elif k.startswith("head."):
        sd[k.replace("head", "classifier")] = v[:2]
new = New()
res = new.load_state_dict(sd, strict=False)
try:
    New().load_state_dict({"encoder.0.weight": torch.zeros(5, 3)}, strict=False)
    err = None
except RuntimeError as e:
    err = "size mismatch" in str(e)
frozen = 0
for name, p in new.named_parameters():
    if name.startswith("encoder"):
        p.requires_grad_(False)
        frozen += p.numel()
trainable = [n for n, p in new.named_parameters() if p.requires_grad]
report(missing=res.missing_keys, unexpected=res.unexpected_keys, err=err, frozen=frozen, trainable=trainable,
       w=new.classifier.weight, same=torch.equal(new.encoder[2].bias, old.backbone[2].bias),
       keys=list(new.state_dict().keys()), n_wrapped=len(wrapped))
