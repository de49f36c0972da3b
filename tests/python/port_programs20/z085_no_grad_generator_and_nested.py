import torch

w = torch.ones(2, requires_grad=True)


@torch.no_grad()
def gen(n):
    for i in range(n):
        yield (w * i).requires_grad


vals = list(gen(3))
with torch.no_grad():
    with torch.enable_grad():
        inner = (w * 2).requires_grad
    outer = (w * 2).requires_grad
with torch.inference_mode():
    with torch.inference_mode(False):
        mid = (w * 2).requires_grad
prev = torch.is_grad_enabled()
torch.set_grad_enabled(False)
off = (w * 3).requires_grad
torch.set_grad_enabled(prev)
on = (w * 3).requires_grad


class Eval:
    @torch.inference_mode()
    def __call__(self, x):
        return x * w


r = Eval()(torch.ones(2))
report(vals=vals, inner=inner, outer=outer, mid=mid, off=off, on=on, r=[r.requires_grad, r.is_inference()])
