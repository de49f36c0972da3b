import torch
import torch.nn as nn
x = torch.arange(6, dtype=torch.float32).reshape(2, 3) / 3
lines = [str(x), repr(torch.tensor([1, 2, 3])), str(torch.tensor([True, False])), str(torch.tensor(3.5)), str(torch.zeros(2, 2, dtype=torch.int64)),
         str(torch.tensor([1.0, 2.5], requires_grad=True)), str(x.shape), str(x.dtype), str(torch.tensor([1e-5, 1e5])), str(x.sum(0)),
         str(torch.tensor([[1.5, float('nan')], [float('inf'), -2.0]])), repr(nn.Linear(3, 2)), repr(nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.MaxPool2d(2))),
         str(torch.tensor([0.1234567, 100.0])), str(torch.tensor([], dtype=torch.float32)), f"{torch.tensor(2.0).item():.3f}", str(torch.tensor([1, 2]).float().mean()),
         str(torch.tensor(3)), repr(nn.LSTM(4, 8, num_layers=2, batch_first=True)), repr(nn.Embedding(10, 3, padding_idx=0)), repr(nn.Dropout(0.2)),
         str(nn.CrossEntropyLoss()), str(torch.device("cpu")), str(x.T.contiguous().view(-1)), str(torch.tensor([[1, 2], [3, 4]], dtype=torch.int32))]
torch.set_printoptions(precision=2)
lines.append(str(x))
torch.set_printoptions(profile="default")
lines.append(str(torch.ones(2, 2) * 0.5 + torch.randn(2, 2) * 0))
report(lines=lines)
