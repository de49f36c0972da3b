import torch
import torch.nn.functional as F

s = data(4, 5, seed=1).requires_grad_()
t = data(4, 5, seed=2)
T = 2.0
kd = F.kl_div(F.log_softmax(s / T, -1), F.softmax(t / T, -1), reduction="batchmean") * T * T
kd2 = F.kl_div(F.log_softmax(s / T, -1), F.log_softmax(t / T, -1), reduction="batchmean", log_target=True) * T * T
(kd + F.cross_entropy(s, torch.tensor([0, 1, 2, 3]))).backward()
js_m = 0.5 * (F.softmax(s, -1) + F.softmax(t, -1))
js = 0.5 * (F.kl_div(js_m.log(), F.softmax(s, -1), reduction="sum") + F.kl_div(js_m.log(), F.softmax(t, -1), reduction="sum"))
report(kd=kd, same=torch.allclose(kd, kd2), g=s.grad, js=js, none=F.kl_div(F.log_softmax(s, -1), F.softmax(t, -1), reduction="none")[0])
