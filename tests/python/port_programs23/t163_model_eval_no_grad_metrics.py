import torch
import torch.nn as nn
import torch.nn.functional as F

model = det(nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Dropout(0.3), nn.Linear(16, 4)), seed=1)
x = data(32, 5, seed=2)
y = ints(4, 32, seed=3)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=8)
model.eval()
test_loss = 0
correct = 0
confusion = torch.zeros(4, 4, dtype=torch.long)
with torch.no_grad():
    for data_, target in loader:
        output = F.log_softmax(model(data_), dim=1)
        test_loss += F.nll_loss(output, target, reduction='sum').item()
        pred = output.argmax(dim=1, keepdim=True)
        correct += pred.eq(target.view_as(pred)).sum().item()
        for t, p in zip(target.view(-1), pred.view(-1)):
            confusion[t.long(), p.long()] += 1
test_loss /= len(loader.dataset)
line = '\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'.format(test_loss, correct, len(loader.dataset), 100. * correct / len(loader.dataset))
per_class = (confusion.diag().float() / confusion.sum(1).clamp(min=1).float())
top2 = model(x).topk(2, dim=1).indices
top2_acc = (top2 == y.unsqueeze(1)).any(dim=1).float().mean()
report(line=line, confusion=confusion, per_class=per_class, top2=top2_acc)
