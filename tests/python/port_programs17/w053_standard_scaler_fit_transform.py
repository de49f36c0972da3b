import torch


class StandardScaler:
    def fit(self, x):
        self.mean_ = x.mean(0, keepdim=True)
        self.scale_ = x.std(0, unbiased=False, keepdim=True)
        self.scale_[self.scale_ == 0] = 1.0
        return self

    def transform(self, x):
        return (x - self.mean_) / self.scale_

    def inverse_transform(self, x):
        return x * self.scale_ + self.mean_


x = data(10, 3, seed=1) * torch.tensor([1.0, 5.0, 0.0]) + torch.tensor([2.0, -1.0, 4.0])
sc = StandardScaler().fit(x)
z = sc.transform(x)
mn, mx = x.aminmax(dim=0)
mm = (x - mn) / (mx - mn).clamp_min(1e-12)
robust = (x - x.median(0).values) / (x.quantile(0.75, 0) - x.quantile(0.25, 0)).clamp_min(1e-6)
report(z=z[:3], scale=sc.scale_, back=torch.allclose(sc.inverse_transform(z), x, atol=1e-5), mm=mm[:2], robust=robust[:2],
       var=torch.var_mean(x, 0, correction=0))
