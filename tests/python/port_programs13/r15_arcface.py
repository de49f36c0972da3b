import math
import torch
import torch.nn as nn
import torch.nn.functional as F
class ArcMarginProduct(nn.Module):
    def __init__(self, in_f, out_f, s=30.0, m=0.50, easy_margin=False):
        super().__init__()
        self.s, self.m = s, m
        self.weight = nn.Parameter(torch.FloatTensor(out_f, in_f))
        nn.init.xavier_uniform_(self.weight)
        self.easy_margin = easy_margin
        self.cos_m, self.sin_m = math.cos(m), math.sin(m)
        self.th = math.cos(math.pi - m)
        self.mm = math.sin(math.pi - m) * m
    def forward(self, input, label):
        cosine = F.linear(F.normalize(input), F.normalize(self.weight))
        sine = torch.sqrt((1.0 - torch.pow(cosine, 2)).clamp(0, 1))
        phi = cosine * self.cos_m - sine * self.sin_m
        phi = torch.where(cosine > self.th, phi, cosine - self.mm)
        one_hot = torch.zeros(cosine.size(), device=input.device)
        one_hot.scatter_(1, label.view(-1, 1).long(), 1)
        output = (one_hot * phi) + ((1.0 - one_hot) * cosine)
        return output * self.s
head = det(ArcMarginProduct(8, 5))
feat = data(6, 8)
lab = ints(5, 6)
logits = head(feat, lab)
loss = nn.CrossEntropyLoss()(logits, lab)
loss.backward()
theta = torch.acos(F.linear(F.normalize(feat), F.normalize(head.weight)).clamp(-1 + 1e-7, 1 - 1e-7))
report(logits=logits, loss=loss, g=head.weight.grad.norm(), deg=torch.rad2deg(theta)[0], dtype=head.weight.dtype)
