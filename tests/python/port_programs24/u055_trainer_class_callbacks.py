import torch
import torch.nn as nn


class Callback:
    def on_epoch_end(self, trainer, epoch, logs):
        pass


class EarlyStopping(Callback):
    def __init__(self, patience=1, min_delta=0.0):
        self.patience, self.min_delta, self.best, self.wait = patience, min_delta, float("inf"), 0

    def on_epoch_end(self, trainer, epoch, logs):
        if logs["val_loss"] < self.best - self.min_delta:
            self.best, self.wait = logs["val_loss"], 0
            trainer.best_state = {k: v.clone() for k, v in trainer.model.state_dict().items()}
        else:
            self.wait += 1
            if self.wait > self.patience:
                trainer.stop = True


class History(Callback):
    def __init__(self):
        self.logs = []

    def on_epoch_end(self, trainer, epoch, logs):
        self.logs.append({k: round(v, 5) for k, v in logs.items()})


class Trainer:
    def __init__(self, model, opt, loss_fn, callbacks):
        self.model, self.opt, self.loss_fn, self.callbacks = model, opt, loss_fn, callbacks
        self.stop, self.best_state = False, None

    def fit(self, train, val, epochs):
        for epoch in range(epochs):
            self.model.train()
            tot = 0.0
            for xb, yb in train:
                loss = self.loss_fn(self.model(xb), yb)
                self.opt.zero_grad(); loss.backward(); self.opt.step()
                tot += loss.item() * len(xb)
            self.model.eval()
            with torch.no_grad():
                vl = sum(self.loss_fn(self.model(x), y).item() * len(x) for x, y in val) / sum(len(x) for x, _ in val)
            logs = {"loss": tot / sum(len(x) for x, _ in train), "val_loss": vl}
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch, logs)
            if self.stop:
                return epoch
        return epochs - 1


x = data(24, 3)
y = x @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.1
train = list(zip(x[:16].split(4), y[:16].split(4)))
val = [(x[16:], y[16:])]
model = det(nn.Linear(3, 1))
hist = History()
trainer = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.3), nn.MSELoss(), [EarlyStopping(patience=1, min_delta=1e-4), hist])
last = trainer.fit(train, val, 30)
model.load_state_dict(trainer.best_state)
report(last=last, logs=hist.logs[:3], n_logs=len(hist.logs), weight=model.weight, best_keys=sorted(trainer.best_state))
