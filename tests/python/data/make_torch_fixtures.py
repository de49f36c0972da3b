"""Writes the PyTorch files test_pretrained.py reads, with PyTorch itself (CI has none; the
files are committed). Run from this folder: python make_torch_fixtures.py (torch 2.x).
The values are small integers and arange sequences, so the test writes them out."""
import collections

import torch

a = torch.arange(12.0).reshape(3, 4)
linear = collections.OrderedDict(weight=torch.arange(6.0).reshape(2, 3) / 4, bias=torch.tensor([-1.0, 1.0]))
state = {
    "model": linear,
    "epoch": 3,
    "name": "tiny",
    "view": a[1:, ::2],  # offset 4, stride (4, 2) into a's storage, saved whole
    "tied": [a, a],  # one storage twice
    "row": a[2],  # a view of the same storage again
    "param": torch.nn.Parameter(torch.full((2,), 0.5)),
    "bf16": torch.tensor([1.5, -2.25]).bfloat16(),
    "f16": torch.tensor([0.5, 3.0]).half(),
    "f64": torch.tensor([1.0, 2.5], dtype=torch.float64),
    "i64": torch.arange(4),
    "i32": torch.tensor([-7, 7], dtype=torch.int32),
    "bool": torch.tensor([True, False, True]),
    "scalar": torch.tensor(3.5),
    "empty": torch.zeros(0, 3),
    "dtype": torch.float16,
    "size": torch.Size([2, 3]),
}
torch.save(state, "torch_zip.pt")
torch.save({"view": a[1:, ::2], "a": a, "i64": torch.arange(4)}, "torch_legacy.pt",
           _use_new_zipfile_serialization=False)
