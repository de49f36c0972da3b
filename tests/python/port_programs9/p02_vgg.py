import torch
import torch.nn as nn

cfg = {"A": [8, "M", 16, "M", 32, 32, "M"]}
class VGG(nn.Module):
    def __init__(self, features, num_classes=5, init_weights=True):
        super(VGG, self).__init__()
        self.features = features
        self.avgpool = nn.AdaptiveAvgPool2d((2, 2))
        self.classifier = nn.Sequential(
            nn.Linear(32 * 2 * 2, 64), nn.ReLU(True), nn.Dropout(),
            nn.Linear(64, 64), nn.ReLU(True), nn.Dropout(),
            nn.Linear(64, num_classes))
        if init_weights:
            self._initialize_weights()
    def forward(self, x):
        x = self.features(x)
        x = self.avgpool(x)
        x = x.view(x.size(0), -1)
        return self.classifier(x)
    def _initialize_weights(self):
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode='fan_out', nonlinearity='relu')
                if m.bias is not None:
                    nn.init.constant_(m.bias, 0)
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1); nn.init.constant_(m.bias, 0)
            elif isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, 0, 0.01); nn.init.constant_(m.bias, 0)

def make_layers(cfg, batch_norm=False):
    layers = []
    in_channels = 3
    for v in cfg:
        if v == 'M':
            layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
        else:
            conv2d = nn.Conv2d(in_channels, v, kernel_size=3, padding=1)
            if batch_norm:
                layers += [conv2d, nn.BatchNorm2d(v), nn.ReLU(inplace=True)]
            else:
                layers += [conv2d, nn.ReLU(inplace=True)]
            in_channels = v
    return nn.Sequential(*layers)

model = VGG(make_layers(cfg["A"], batch_norm=True))
det(model)
model.eval()
x = data(2, 3, 16, 16)
with torch.no_grad():
    logits = model(x)
    probs = torch.nn.functional.softmax(logits, dim=1)
top_p, top_class = probs.topk(3, dim=1)
n_conv = len([m for m in model.features if isinstance(m, nn.Conv2d)])
report(logits=logits, top_p=top_p, top_class=top_class, n_conv=n_conv, size=list(model.features(x).size()),
       nparams=sum(p.numel() for p in model.parameters()), training=model.training, names=[n for n, _ in model.named_children()])
