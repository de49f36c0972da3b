import torch
import torch.nn as nn
series = torch.sin(torch.arange(0, 40, dtype=torch.float32) * 0.3) + 0.1 * data(40)
window = 8
X = series.unfold(0, window, 1)[:-1]
Y = series[window:]
mu, sd = X.mean(dim=1, keepdim=True), X.std(dim=1, keepdim=True)
Xn = ((X - mu) / sd).unsqueeze(-1)
Yn = (Y - mu.squeeze(1)) / sd.squeeze(1)
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 4, kernel_size=3, padding=1)
        self.lstm = nn.LSTM(4, 8, batch_first=True)
        self.head = nn.Linear(8, 1)
    def forward(self, x):
        x = torch.relu(self.conv(x.transpose(1, 2))).transpose(1, 2)
        out, (h, c) = self.lstm(x)
        return self.head(out[:, -1, :]).squeeze(-1)
model = det(Model(), 0, 0.3)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
losses = []
for epoch in range(4):
    for xb, yb in zip(Xn.split(8), Yn.split(8)):
        opt.zero_grad(); loss = nn.MSELoss()(model(xb), yb); loss.backward(); opt.step()
    losses.append(loss.item())
model.eval()
with torch.no_grad():
    pred = model(Xn[-3:]) * sd[-3:].squeeze(1) + mu[-3:].squeeze(1)
report(losses=losses, pred=pred, xs=list(X.shape), l1=nn.L1Loss()(pred, Y[-3:]), hub=nn.HuberLoss(delta=0.5)(pred, Y[-3:]))
