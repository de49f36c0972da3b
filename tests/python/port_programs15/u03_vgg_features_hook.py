import torch
import torch.nn as nn

cfg = [4, "M", 8, 8, "M", 16]


def make_layers(cfg, bn=True):
    layers, c = [], 3
    for v in cfg:
        if v == "M":
            layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
        else:
            layers += [nn.Conv2d(c, v, 3, padding=1), nn.BatchNorm2d(v), nn.ReLU(inplace=True)]
            c = v
    return nn.Sequential(*layers)


class VGG(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = make_layers(cfg)
        self.avgpool = nn.AdaptiveAvgPool2d((2, 2))
        self.classifier = nn.Sequential(nn.Linear(16 * 4, 10), nn.ReLU(True), nn.Dropout(p=0.5), nn.Linear(10, 3))

    def forward(self, x):
        x = self.features(x)
        x = self.avgpool(x)
        x = torch.flatten(x, 1)
        return self.classifier(x)


model = det(VGG()).eval()
feats = {}


def save(name):
    def hook(mod, inp, out):
        feats[name] = out.detach()
    return hook


handles = [m.register_forward_hook(save(f"relu{i}")) for i, m in enumerate(model.features) if isinstance(m, nn.ReLU)]
x = data(2, 3, 12, 12)
with torch.no_grad():
    y = model(x)
for h in handles:
    h.remove()
with torch.no_grad():
    model(x)
report(y=y, keys=sorted(feats), shapes={k: list(v.shape) for k, v in feats.items()},
       means=[round(v.mean().item(), 5) for _, v in sorted(feats.items())],
       frac_zero=(feats["relu2"] == 0).float().mean().item(), nh=len(handles))
