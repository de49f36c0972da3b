import torch

torch.set_printoptions(precision=3)
outs = [
    repr(torch.tensor([1.0, 2.5, -3.25])), repr(torch.tensor([1, 2, 3], dtype=torch.int32)), repr(torch.tensor([True, False])),
    repr(torch.tensor([1e-8, 1.0])), repr(torch.tensor([1e10, 1.0])), repr(torch.tensor(3.14159)),
    repr(torch.zeros(2, 0)), repr(torch.tensor([[1.5, 2.0], [3.0, 4.0]], dtype=torch.float64)),
    repr(torch.ones(2, requires_grad=True) * 2), repr(torch.tensor([0.1, 0.2], dtype=torch.float16)),
    repr(torch.arange(3, dtype=torch.uint8)), str(torch.tensor([float("inf"), float("nan"), -1.0])),
    repr(torch.tensor([100.0, 0.001])), repr(torch.tensor(5)), repr(torch.tensor([[1, -20], [300, 4]])),
]
torch.set_printoptions(precision=2, sci_mode=True)
outs.append(repr(torch.tensor([1.5, 250.0])))
torch.set_printoptions(profile="default")
outs.append(repr(torch.tensor([1.123456789, 2.0])))
torch.set_printoptions(threshold=5, edgeitems=2)
outs.append(repr(torch.arange(10)))
outs.append(repr(torch.arange(30.0).view(5, 6)))
torch.set_printoptions(profile="default")
outs.append(str(torch.Size([2, 3])))
outs.append(repr(torch.tensor([1.0]).dtype))
outs.append(str(torch.nn.Parameter(torch.tensor([1.0, 2.0]))))
outs.append(repr(torch.tensor([2.0, 3.0], dtype=torch.bfloat16)))
report(outs=outs)
