import torch

report(a=str(torch.arange(12).view(2, 2, 3)), b=str(torch.tensor([123456789012, -5])), c=str(torch.tensor([[-1.5e-7, 2.0], [3.0, 4.0]])),
       d=str(torch.tensor([1.0, -2.0, 3.0]) * 1e6), e=str(torch.tensor([0.0, -0.0])), f=str(torch.zeros(2, 3, dtype=torch.int8)),
       g=str(torch.tensor([[True, False]])), h=str(torch.ones(1, 1, 1)), i=str(torch.tensor([1e-3, 1e3])), j=str(torch.tensor([0.1, 0.25, 1e5])),
       k=str(torch.tensor([12345.678, 0.5])), l=str(torch.tensor([1, 2]).float() / 3), m=repr(torch.tensor([[1.0, 2.0]], dtype=torch.float64) * 1e-10))
