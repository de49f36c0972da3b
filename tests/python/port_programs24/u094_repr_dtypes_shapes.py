import torch

vals = {
    "bool": torch.tensor([[True], [False]]), "u8": torch.tensor([1, 255], dtype=torch.uint8), "i8": torch.tensor([-1], dtype=torch.int8),
    "f16": torch.tensor([0.5, 1.25], dtype=torch.float16), "bf16": torch.tensor([3.0], dtype=torch.bfloat16),
    "c64": torch.tensor([1 + 2j, -0.5j]), "f64_int": torch.tensor([1.0, 2.0], dtype=torch.float64), "empty_i": torch.tensor([], dtype=torch.int64),
    "scalar_i": torch.tensor(-4), "scalar_b": torch.tensor(False), "ints_neg": torch.tensor([[-10, 2], [3, 400]]),
    "float_ints": torch.tensor([1.0, -2.0, 300.0]), "long_3d": torch.arange(8).view(2, 2, 2),
}
reprs = {k: repr(v) for k, v in vals.items()}
strs = {k: str(v.dtype) for k, v in vals.items()}
grad = torch.tensor([1.0, 2.0], requires_grad=True)
reprs["leaf"] = repr(grad)
reprs["nonleaf"] = repr(grad.sum())
reprs["param"] = repr(torch.nn.Parameter(torch.ones(2)))
reprs["view_grad"] = repr((grad * 1)[0])
reprs["size"] = str(torch.Size([2, 3]))
reprs["finfo"] = repr(torch.finfo(torch.float16).eps)
report(reprs=reprs, strs=strs)
