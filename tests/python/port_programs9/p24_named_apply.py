import torch
import torch.nn as nn
class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln = nn.LayerNorm(d); self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
    def forward(self, x):
        return x + self.ff(self.ln(x))
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 8)
        self.blocks = nn.ModuleList([Block(8) for _ in range(2)])
        self.head = nn.Linear(8, 10)
    def forward(self, idx):
        x = self.emb(idx)
        for b in self.blocks:
            x = b(x)
        return self.head(x)
model = Model()
def _init_weights(module):
    if isinstance(module, nn.Linear):
        torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
        if module.bias is not None:
            torch.nn.init.zeros_(module.bias)
    elif isinstance(module, nn.Embedding):
        torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
model.apply(_init_weights)
zero_bias = all((m.bias == 0).all().item() for m in model.modules() if isinstance(m, nn.Linear))
det(model)
names = [n for n, _ in model.named_modules()]
kinds = [type(m).__name__ for m in model.modules()]
children = [n for n, _ in model.named_children()]
decay, no_decay = set(), set()
for mn, m in model.named_modules():
    for pn, p in m.named_parameters(recurse=False):
        fpn = "%s.%s" % (mn, pn) if mn else pn
        if pn.endswith("bias") or isinstance(m, (nn.LayerNorm, nn.Embedding)):
            no_decay.add(fpn)
        elif pn.endswith("weight") and isinstance(m, nn.Linear):
            decay.add(fpn)
param_dict = {pn: p for pn, p in model.named_parameters()}
optim_groups = [{"params": [param_dict[pn] for pn in sorted(list(decay))], "weight_decay": 0.1},
                {"params": [param_dict[pn] for pn in sorted(list(no_decay))], "weight_decay": 0.0}]
opt = torch.optim.AdamW(optim_groups, lr=3e-3, betas=(0.9, 0.95))
idx = ints(10, 2, 5); tgt = ints(10, 2, 5, seed=9)
losses = []
for _ in range(3):
    logits = model(idx)
    loss = nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), tgt.view(-1), ignore_index=-1)
    opt.zero_grad(set_to_none=True); loss.backward(); opt.step(); losses.append(loss.item())
n_lin = sum(isinstance(m, nn.Linear) for m in model.modules())
frozen = model.blocks[0]
for p in frozen.parameters(): p.requires_grad = False
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
report(names=names, kinds=kinds, children=children, decay=sorted(decay), no_decay=sorted(no_decay), losses=losses, n_lin=n_lin, zero_bias=zero_bias,
       trainable=trainable, getsub=type(model.get_submodule("blocks.1.ff.0")).__name__, npar=len(list(model.named_parameters(prefix="m"))))
