import torch
import torch.nn as nn


class Pooler(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.dense = nn.Linear(d, d)
        self.activation = nn.Tanh()

    def forward(self, hidden):
        return self.activation(self.dense(hidden[:, 0]))


class Cls(nn.Module):
    def __init__(self, d=6, n=3):
        super().__init__()
        self.pooler = Pooler(d)
        self.dropout = nn.Dropout(0.1)
        self.classifier = nn.Linear(d, n)

    def forward(self, h, labels=None):
        logits = self.classifier(self.dropout(self.pooler(h)))
        out = {"logits": logits}
        if labels is not None:
            out["loss"] = nn.functional.cross_entropy(logits, labels)
        return out


m = det(Cls()).eval()
h = data(4, 5, 6, seed=2)
with torch.no_grad():
    out = m(h, labels=torch.tensor([0, 2, 1, 1]))
preds = out["logits"].argmax(-1)
probs = out["logits"].softmax(-1)
report(loss=out["loss"], preds=preds, probs=probs, training=m.training, dropout_training=m.dropout.training)
