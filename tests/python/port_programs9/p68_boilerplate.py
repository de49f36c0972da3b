import os, random, tempfile
import numpy as np
import torch
import torch.nn as nn
def set_seed(seed):
    random.seed(seed); np.random.seed(seed); torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
set_seed(42)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
mps = torch.backends.mps.is_available() if hasattr(torch.backends, "mps") else False
torch.set_float32_matmul_precision("high")
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding.from_pretrained(torch.arange(12.0).view(4, 3), freeze=True)
        self.fc = nn.Linear(3, 2); self.act = nn.PReLU(); self.bil = nn.Bilinear(2, 2, 1)
    def forward(self, idx, scale=1.0):
        h = self.act(self.fc(self.emb(idx))) * scale
        return self.bil(h, h)
model = det(Net()).to(device)
idx = torch.tensor([0, 3, 1], device=device)
out = model(idx, scale=0.5)
loss = out.pow(2).mean(); loss.backward()
path = os.path.join(tempfile.mkdtemp(), "model.pt")
torch.save(model, path)
m2 = torch.load(path, weights_only=False)
sd = model.state_dict()
shapes = [(k, list(v.shape)) for k, v in sd.items()]
@torch.inference_mode()
def predict(m, x):
    return m(x)
p = predict(m2, idx)
acts = [nn.Softplus(beta=2)(out), nn.CELU(0.5)(out), nn.GLU()(torch.cat([out, out], 1)), nn.Hardtanh(-0.1, 0.1)(out), nn.Softsign()(out), nn.Tanhshrink()(out), nn.LogSigmoid()(out)]
report(device=str(device), mps=mps, out=out, emb_grad=model.emb.weight.grad is None, emb_rg=model.emb.weight.requires_grad, prelu=model.act.weight.grad,
       shapes=shapes, same=torch.equal(p, out.detach()), cls=type(m2).__name__, acts=acts, det=torch.backends.cudnn.deterministic)
