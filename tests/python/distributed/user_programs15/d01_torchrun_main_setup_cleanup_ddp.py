import json, os
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP


def setup():
    dist.init_process_group("gloo")
    return int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])


def cleanup():
    dist.destroy_process_group()


class ToyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net1 = nn.Linear(10, 10)
        self.relu = nn.ReLU()
        self.net2 = nn.Linear(10, 5)

    def forward(self, x):
        return self.net2(self.relu(self.net1(x)))


def main():
    rank, world = setup()
    model = ToyModel()
    g = np.random.default_rng(0)
    with meshflow.no_grad():
        for p in model.parameters():
            p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
    ddp_model = DDP(model)
    loss_fn = nn.MSELoss()
    optimizer = meshflow.optim.SGD(ddp_model.parameters(), lr=0.001 * 10)
    rng = np.random.default_rng(100 + rank)
    losses = []
    for _ in range(4):
        optimizer.zero_grad()
        outputs = ddp_model(meshflow.tensor(rng.standard_normal((20, 10)).astype(np.float32)))
        labels = meshflow.tensor(rng.standard_normal((20, 5)).astype(np.float32))
        loss = loss_fn(outputs, labels)
        loss.backward()
        optimizer.step()
        losses.append(round(loss.item(), 5))
    w = round(ddp_model.module.net1.weight.sum().item(), 5)
    print("RESULT", rank, json.dumps({"losses": losses, "w": w}))
    cleanup()


if __name__ == "__main__":
    main()
