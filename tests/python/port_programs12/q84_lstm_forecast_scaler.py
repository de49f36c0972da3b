import numpy as np
import torch
import torch.nn as nn
series = np.sin(np.linspace(0, 8 * np.pi, 80)).astype(np.float32) * 10 + 50
mn, mx = series.min(), series.max()
scaled = (series - mn) / (mx - mn)
def windows(arr, w):
    xs, ys = [], []
    for i in range(len(arr) - w):
        xs.append(arr[i:i + w]); ys.append(arr[i + w])
    return torch.tensor(np.array(xs)).unsqueeze(-1), torch.tensor(np.array(ys)).unsqueeze(-1)
X, Y = windows(scaled, 10)
split = int(len(X) * 0.8)
Xtr, Ytr, Xte, Yte = X[:split], Y[:split], X[split:], Y[split:]
class LSTMModel(nn.Module):
    def __init__(self):
        super().__init__(); self.lstm = nn.LSTM(input_size=1, hidden_size=8, num_layers=1, batch_first=True); self.fc = nn.Linear(8, 1)
    def forward(self, x):
        h0 = torch.zeros(1, x.size(0), 8); c0 = torch.zeros(1, x.size(0), 8)
        out, _ = self.lstm(x, (h0, c0))
        return self.fc(out[:, -1, :])
model = det(LSTMModel(), scale=0.3)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
crit = nn.MSELoss()
hist = []
for epoch in range(6):
    model.train(); opt.zero_grad(); l = crit(model(Xtr), Ytr); l.backward(); opt.step(); hist.append(l.item())
model.eval()
with torch.no_grad():
    pred = model(Xte)
pred_inv = pred.numpy() * (mx - mn) + mn
rmse = float(np.sqrt(np.mean((pred_inv - (Yte.numpy() * (mx - mn) + mn)) ** 2)))
report(hist=hist, rmse=rmse, first=float(pred_inv[0, 0]), shapes=[list(Xtr.shape), list(Xte.shape)], dtype=str(X.dtype))
