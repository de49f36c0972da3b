import torch
a = torch.tensor([1.0, 2.0, float("nan")])
b = torch.tensor([1.0 + 1e-7, 2.0, float("nan")])
res = {}
try:
    torch.testing.assert_close(a, b, equal_nan=True); res["ok1"] = True
except AssertionError:
    res["ok1"] = False
try:
    torch.testing.assert_close(a[:2], torch.tensor([1.0, 2.1])); res["ok2"] = True
except AssertionError:
    res["ok2"] = False
try:
    torch.testing.assert_close(torch.tensor([1]), torch.tensor([1.0])); res["ok3"] = True
except (AssertionError, TypeError) as e:
    res["ok3"] = type(e).__name__
try:
    torch.testing.assert_close(torch.tensor([1.0]), torch.tensor([1.05]), rtol=0.1, atol=0); res["ok4"] = True
except AssertionError:
    res["ok4"] = False
res["allclose_nan"] = torch.allclose(a, b, equal_nan=True)
res["allclose"] = torch.allclose(a, b)
res["isclose"] = torch.isclose(a, b, rtol=0, atol=1e-6, equal_nan=True)
res["equal"] = torch.equal(torch.tensor([1, 2]), torch.tensor([1, 2]))
res["equal_shape"] = torch.equal(torch.tensor([1, 2]), torch.tensor([[1, 2]]))
res["isclose_int"] = torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3]))
report(**res)
