import torch
import torch.nn as nn
import torch.optim as optim

netA = det(nn.Linear(4, 3), seed=1)
netB = det(nn.Linear(3, 2), seed=2)
optimizerA = optim.SGD(netA.parameters(), lr=0.1, momentum=0.9)
optimizerB = optim.SGD(netB.parameters(), lr=0.1, momentum=0.9)
x = data(5, 4, seed=3)
loss = netB(netA(x)).pow(2).sum()
loss.backward()
optimizerA.step()
optimizerB.step()
torch.save({
    'modelA_state_dict': netA.state_dict(),
    'modelB_state_dict': netB.state_dict(),
    'optimizerA_state_dict': optimizerA.state_dict(),
    'optimizerB_state_dict': optimizerB.state_dict(),
}, "ckpt.tar")
modelA = nn.Linear(4, 3)
modelB = nn.Linear(3, 2)
optA = optim.SGD(modelA.parameters(), lr=0.1, momentum=0.9)
optB = optim.SGD(modelB.parameters(), lr=0.1, momentum=0.9)
checkpoint = torch.load("ckpt.tar", weights_only=True)
modelA.load_state_dict(checkpoint['modelA_state_dict'])
modelB.load_state_dict(checkpoint['modelB_state_dict'])
optA.load_state_dict(checkpoint['optimizerA_state_dict'])
optB.load_state_dict(checkpoint['optimizerB_state_dict'])
modelA.eval()
modelB.eval()
for m, o in ((netA, optimizerA), (modelA, optA)):
    o.zero_grad()
for m, o in ((netB, optimizerB), (modelB, optB)):
    o.zero_grad()
netB(netA(x)).pow(2).sum().backward()
optimizerA.step(); optimizerB.step()
modelB(modelA(x)).pow(2).sum().backward()
optA.step(); optB.step()
report(a=[torch.equal(netA.weight, modelA.weight), torch.equal(netB.bias, modelB.bias)], w=modelA.weight,
       buf=optA.state_dict()['state'][0]['momentum_buffer'], training=[modelA.training, netA.training])
