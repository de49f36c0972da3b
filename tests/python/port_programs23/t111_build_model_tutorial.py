import torch
from torch import nn


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 32),
            nn.ReLU(),
            nn.Linear(32, 32),
            nn.ReLU(),
            nn.Linear(32, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = det(NeuralNetwork(), scale=0.1)
text = str(model)
X = data(1, 28, 28, seed=3)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
input_image = data(3, 28, 28, seed=4)
flatten = nn.Flatten()
flat_image = flatten(input_image)
layer1 = nn.Linear(in_features=28 * 28, out_features=20)
det(layer1, seed=5)
hidden1 = layer1(flat_image)
before = hidden1[0, :4]
hidden1 = nn.ReLU()(hidden1)
seq_modules = nn.Sequential(flatten, layer1, nn.ReLU(), nn.Linear(20, 10))
det(seq_modules[3], seed=6)
logits2 = seq_modules(input_image)
softmax = nn.Softmax(dim=1)
pred_probab2 = softmax(logits2)
params = []
for name, param in model.named_parameters():
    params.append(f"Layer: {name} | Size: {param.size()} | Values : {param[:2].shape} \n")
report(text=text, y_pred=y_pred, size=flat_image.size(), before=before, after=hidden1[0, :4], probs=pred_probab2[0],
       params=params, logits=logits)
