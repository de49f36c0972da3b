import torch


class Running:
    def __init__(self, shape):
        self.n = 0
        self.mean = torch.zeros(shape)
        self.M2 = torch.zeros(shape)

    def update(self, x):
        for row in x:
            self.n += 1
            d = row - self.mean
            self.mean += d / self.n
            self.M2 += d * (row - self.mean)

    @property
    def var(self):
        return self.M2 / (self.n - 1)


r = Running(3)
X = data(10, 3, seed=7)
r.update(X[:4])
r.update(X[4:])
report(mean=r.mean, var=r.var, ref_var=X.var(0), ref_mean=X.mean(0), vm=torch.var_mean(X, 0, correction=0))
