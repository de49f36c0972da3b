"""The compiled training step the graph tests share: forward, cross-entropy, backward and the
optimizer's step, as a user's nn.Graph would write it."""
import meshflow.nn as nn
import meshflow.nn.functional as F


class CrossEntropyStep(nn.Graph):
    def __init__(self, model, optimizer):
        super().__init__()
        self.model = model
        self.add_optimizer(optimizer)

    def build(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        return loss
