import torch
import torch.nn.functional as F
x = torch.tensor([[1000.0, 1000.0, -1000.0], [-float("inf"), 0.0, 1.0], [float("-inf")] * 3])
h = torch.tensor([[10.0, 11.0, 12.0]], dtype=torch.float16)
report(sm=F.softmax(x, 1), lsm=F.log_softmax(x[:2], 1), lse=torch.logsumexp(x, 1), hs=F.softmax(h, 1), hsd=F.softmax(h, 1, dtype=torch.float32).dtype, hdt=F.softmax(h, 1).dtype,
       sig=torch.sigmoid(torch.tensor([-100.0, 100.0, 0.0])), sp=F.softplus(torch.tensor([-50.0, 50.0, 0.0])), lsig=F.logsigmoid(torch.tensor([-100.0, 100.0])))
