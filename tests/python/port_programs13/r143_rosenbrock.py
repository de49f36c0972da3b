import torch
def rosen(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2
res = {}
for name, make, steps in (("lbfgs", lambda p: torch.optim.LBFGS([p], lr=1, max_iter=20, history_size=10), 3),
                          ("lbfgs_sw", lambda p: torch.optim.LBFGS([p], lr=1, max_iter=20, line_search_fn="strong_wolfe"), 3),
                          ("sgd", lambda p: torch.optim.SGD([p], lr=1e-3, momentum=0.9), 50),
                          ("adam", lambda p: torch.optim.Adam([p], lr=0.05), 50)):
    p = torch.tensor([-1.5, 2.0], dtype=torch.float64, requires_grad=True)  # float32 rounding grows over 60 steps on this valley
    opt = make(p)
    def closure():
        opt.zero_grad()
        l = rosen(p)
        l.backward()
        return l
    for _ in range(steps):
        opt.step(closure)
    res[name] = [p.detach(), rosen(p).item()]
st = opt.state_dict()["state"][0]
report(res=res, state_keys=sorted(st.keys()))
# TOL 1e-3
