import torch
import torch.nn.functional as F
a = torch.tensor([-10, -2, 0, 3, 7, 100], dtype=torch.int8)
b = torch.tensor([-5, 2, 9], dtype=torch.int64)
report(ht=F.hardtanh(a), htdt=F.hardtanh(a).dtype, ht2=F.hardtanh(a, -2.5, 4.5), r6=F.relu6(b), r6dt=F.relu6(b).dtype, relu=F.relu(a), reludt=F.relu(a).dtype,
       mod=torch.nn.Hardtanh(-1, 1)(b), moddt=torch.nn.ReLU6()(b).dtype, u8=F.hardtanh(torch.tensor([0, 5, 200], dtype=torch.uint8), 0, 6))
