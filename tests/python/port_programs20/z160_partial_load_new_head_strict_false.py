import torch
import torch.nn as nn


class Pre(nn.Module):
    def __init__(self, classes):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 4), nn.ReLU())
        self.head = nn.Linear(4, classes)

    def forward(self, x):
        return self.head(self.body(x))


pre = det(Pre(10))
torch.save(pre.state_dict(), "pre.pt")
sd = torch.load("pre.pt", weights_only=True)
model = Pre(3)
det(model.head, seed=9)
filtered = {k: v for k, v in sd.items() if not k.startswith("head.")}
res = model.load_state_dict(filtered, strict=False)
model_dict = model.state_dict()
pretrained = {k: v for k, v in sd.items() if k in model_dict and v.shape == model_dict[k].shape}
model_dict.update(pretrained)
model.load_state_dict(model_dict)
x = data(2, 3)
report(missing=res.missing_keys, unexpected=res.unexpected_keys, n=len(pretrained), out=model(x),
       body_same=torch.equal(model.body[0].weight, pre.body[0].weight))
