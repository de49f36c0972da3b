import torch

report(r1=repr(torch.tensor([1e-10, 1.0, 1e10])), r2=repr(torch.tensor([123456.0, 0.5])), r3=repr(torch.tensor([[0.0001, 0.1], [10.0, 1000.0]])),
       r4=repr(torch.tensor([float("nan"), 1.5, float("-inf")])), r5=repr(torch.tensor([1.0, 2.0], dtype=torch.float16)), r6=repr(torch.tensor(1e-5)),
       r7=repr(torch.tensor([100000000.0])), r8=repr(torch.tensor([-0.5, 0.25], dtype=torch.float64)), r9=repr(torch.arange(6).view(3, 2).float() / 3),
       r10=repr(torch.tensor([True])), r11=str(torch.tensor([[1, 2]], dtype=torch.uint8)), r12=repr(torch.zeros(1, 2, 0)), r13=repr(torch.tensor([1.0, 2.0]).requires_grad_().mean()))
