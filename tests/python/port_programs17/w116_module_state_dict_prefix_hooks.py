import torch
import torch.nn as nn


class Old(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.register_buffer("step", torch.tensor(0))
        self.register_buffer("tmp", torch.zeros(1), persistent=False)


m = det(Old())
sd = m.state_dict(prefix="model.")
sd2 = {k.replace("model.", ""): v for k, v in sd.items()}
m2 = Old()
r = m2.load_state_dict(sd2, strict=False)
sd3 = dict(sd2)
sd3["extra"] = torch.ones(1)
del sd3["step"]
r2 = m2.load_state_dict(sd3, strict=False)
err = None
try:
    m2.load_state_dict({"fc.weight": torch.zeros(3, 2), "fc.bias": torch.zeros(2), "step": torch.tensor(0)})
except RuntimeError as e:
    err = "size mismatch" in str(e)
report(keys=list(sd.keys()), miss=r.missing_keys, unexp=r.unexpected_keys, miss2=r2.missing_keys, unexp2=r2.unexpected_keys, err=err,
       w=m2.fc.weight, bufs=[n for n, _ in m.named_buffers()])
