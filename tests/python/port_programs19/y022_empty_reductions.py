import torch
e = torch.zeros(0, 3)
outs = {}
outs["sum"] = e.sum(0)
outs["prod"] = e.prod(0)
outs["mean"] = e.mean(0)
outs["sum_all"] = e.sum()
outs["amax_dim1"] = e.amax(1)
outs["logsumexp"] = e.logsumexp(0)
try:
    e.max()
    outs["max"] = "ok"
except (RuntimeError, IndexError) as ex:
    outs["max"] = isinstance(ex, RuntimeError)
try:
    e.amax(0)
    outs["amax0"] = "ok"
except (RuntimeError, IndexError) as ex:
    outs["amax0"] = isinstance(ex, IndexError)
outs["any"] = e.any(); outs["all"] = e.all(); outs["count"] = e.count_nonzero(); outs["nansum"] = e.nansum()
outs["std"] = torch.zeros(1).std()
report(**outs)
