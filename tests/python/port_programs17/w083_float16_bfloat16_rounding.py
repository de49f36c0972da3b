import torch

x = torch.tensor([1.0 / 3, 1e-8, 70000.0, 65504.0, 2049.0, 0.1, -0.0, 3.14159265])
h = x.half()
b = x.bfloat16()
acc_h = torch.zeros(1, dtype=torch.float16)
for _ in range(100):
    acc_h += 0.01
acc_b = torch.zeros((), dtype=torch.bfloat16)
for _ in range(100):
    acc_b = acc_b + torch.tensor(0.01, dtype=torch.bfloat16)
mm = torch.ones(4, 4, dtype=torch.bfloat16) @ torch.full((4, 4), 0.1, dtype=torch.bfloat16)
report(h=h, b=b, hi=torch.isinf(h), acc_h=acc_h, acc_b=acc_b, mm=mm[0], h2b=h.to(torch.bfloat16), b2h=b.half(),
       s=h.sum(), sd=h.sum().dtype, hm=(h[:3] * h[:3]), ints=torch.tensor([300, 257]).to(torch.uint8), neg=torch.tensor([-1.7, 2.9]).to(torch.int32))
# TOL 1e-3
