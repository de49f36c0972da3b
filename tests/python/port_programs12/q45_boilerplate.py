import random
import numpy as np
import torch
import torch.nn as nn
def seed_everything(seed=42):
    random.seed(seed); np.random.seed(seed); torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
seed_everything()
device = torch.device("cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu")
torch.set_float32_matmul_precision("high")
torch.use_deterministic_algorithms(True)
model = det(nn.Sequential(nn.Linear(3, 8), nn.SiLU(), nn.Linear(8, 2))).to(device)
cmodel = torch.compile(model)
x = data(4, 3).to(device, non_blocking=True)
opt = torch.optim.Adam(model.parameters(), lr=1e-2, foreach=True)
losses = []
for _ in range(3):
    opt.zero_grad(set_to_none=True)
    loss = cmodel(x).pow(2).mean()
    loss.backward(); opt.step(); losses.append(loss.item())
@torch.no_grad()
def evaluate(m):
    return m(x).sum().item()
@torch.inference_mode()
def infer(m):
    out = m(x)
    return out, out.requires_grad, torch.is_inference_mode_enabled()
out, rg, im = infer(model)
with torch.enable_grad():
    eg = torch.is_grad_enabled()
n_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
report(losses=losses, ev=evaluate(model), out=out, rg=rg, im=im, eg=eg, n=n_params, dev=str(device), cuda=torch.cuda.is_available(), cnt=torch.cuda.device_count(),
       ver=isinstance(torch.__version__, str), thr=torch.get_num_threads() > 0, dt=str(torch.get_default_dtype()), mod_type=type(model[0]).__name__, p=next(model.parameters()).device.type)
