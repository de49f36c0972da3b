import torch
import torch.nn as nn

backbone = det(nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 6)))
head = det(nn.Linear(6, 2), seed=3)
model = nn.Sequential(backbone, head)
for p in backbone.parameters():
    p.requires_grad = False
backbone.eval()
trainable = [n for n, p in model.named_parameters() if p.requires_grad]
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.5)
w0 = backbone[0].weight.clone()
x, y = data(5, 4, seed=1), torch.tensor([0, 1, 1, 0, 1])
for _ in range(3):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
backbone[2].weight.requires_grad_(True)
n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
report(trainable=trainable, same=torch.equal(w0, backbone[0].weight), head=head.weight, loss=loss,
       bgrad=backbone[0].weight.grad is None, n_train=n_train)
