import torch
import torch.nn as nn

age = torch.tensor([23.0, 35.0, 47.0, 52.0, 61.0, 19.0, 33.0, 44.0])
income = torch.tensor([20.0, 55.0, 80.0, 40.0, 95.0, 15.0, 60.0, 70.0])
a_b = torch.bucketize(age, torch.tensor([25.0, 40.0, 55.0]))
i_b = torch.bucketize(income, torch.tensor([30.0, 60.0, 90.0]), right=True)
cross = a_b * 4 + i_b
y = torch.tensor([0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0])
emb = det(nn.Embedding(16, 1))
bias = nn.Parameter(torch.zeros(1))
opt = torch.optim.Adagrad(list(emb.parameters()) + [bias], lr=0.5)
for _ in range(10):
    logit = emb(cross).squeeze(1) + bias
    loss = nn.functional.binary_cross_entropy_with_logits(logit, y)
    opt.zero_grad(); loss.backward(); opt.step()
report(a_b=a_b, i_b=i_b, cross=cross, loss=loss.item(), p=torch.sigmoid(emb(cross).squeeze(1) + bias))
