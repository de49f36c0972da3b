import torch

x = torch.tensor([1.0, float("nan"), -2.0, float("inf"), float("-inf"), 0.0])
y = torch.tensor([1.0, float("nan"), 3.0, float("inf"), 0.0, -0.0])
report(eq=x == y, ne=x != y, lt=x < y, ge=x >= y, isnan=x.isnan(), isfinite=x.isfinite(), isinf=x.isinf(), isposinf=torch.isposinf(x),
       maximum=torch.maximum(x, y), fmax=torch.fmax(x, y), minimum=torch.minimum(x, y), fmin=torch.fmin(x, y), max=x.max(), argmax=x.argmax(),
       sort=torch.sort(x).values, sort_i=torch.sort(x).indices, sort_desc=torch.sort(x, descending=True).indices, topk=x.topk(2).indices,
       nanmax_mask=x[~x.isnan()].max(), eq_self=(x == x), allclose=torch.allclose(x, x), allclose_nan=torch.allclose(x, x, equal_nan=True),
       isclose=torch.isclose(x, y), clamp=x.clamp(-1, 1), sign=torch.sign(x), equal=torch.equal(x, x), unique=torch.unique(torch.tensor([1.0, float("nan"), 1.0])).numel(),
       nan_to_num=torch.nan_to_num(x), argsort=x.argsort(), amax=torch.amax(x), cummax=torch.cummax(x, 0).values, median=x.median())
