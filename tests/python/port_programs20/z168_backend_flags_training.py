import torch
import torch.nn as nn

torch.backends.cudnn.benchmark = True
torch.backends.cudnn.deterministic = True
torch.use_deterministic_algorithms(True)
torch.set_float32_matmul_precision("high")
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
n = torch.get_num_threads()
torch.set_num_threads(1)
m = det(nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8, 2)))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
x, y = data(3, 1, 4, 4), ints(2, 3)
for _ in range(2):
    opt.zero_grad()
    nn.functional.cross_entropy(m(x), y).backward()
    opt.step()
torch.set_num_threads(n)
report(w=m[3].weight, prec=torch.get_float32_matmul_precision(), det=torch.are_deterministic_algorithms_enabled(),
       threads=torch.get_num_threads() == n)
