import torch

x = torch.empty(5, 3)
x = torch.zeros(5, 3, dtype=torch.long)
y = torch.tensor([5.5, 3])
y = y.new_ones(5, 3, dtype=torch.double)
z = torch.randn_like(y, dtype=torch.float)
a = torch.arange(15, dtype=torch.float32).view(5, 3) / 7
b = torch.ones(5, 3)
s1 = a + b
s2 = torch.add(a, b)
result = torch.empty(5, 3)
torch.add(a, b, out=result)
b.add_(a)
view16 = a.view(15)
view_m1 = a.view(-1, 5)
one = torch.tensor([0.25])
report(x=x, x_dtype=x.dtype, y=y, y_dtype=y.dtype, z_size=z.size(), z_dtype=z.dtype, s1=s1, s2=s2, result=result, b=b,
       col=a[:, 1], sizes=[a.size(), view16.size(), view_m1.size()], one=one.item())
