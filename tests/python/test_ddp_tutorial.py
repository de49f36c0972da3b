"""PyTorch's DDP tutorial (demo_basic and demo_checkpoint), spelled with meshflow's names and
run as `python3 script.py` (mp.spawn starts the job): rank 0 saves the DDP model's
state_dict to tempfile.gettempdir() + "/model.checkpoint" under `if rank == 0:`, a barrier,
every rank loads it with map_location. The save raised before: a path without torch's
suffix was a collective save, which rank 1 never made (issue 37)."""
from jobs import PYTHON, run, write_script

TUTORIAL = """
    import os
    import tempfile
    import meshflow as torch
    import meshflow.distributed as dist
    import meshflow.nn as nn
    import meshflow.optim as optim
    import meshflow.multiprocessing as mp
    from meshflow.nn.parallel import DistributedDataParallel as DDP


    def setup(rank, world_size):
        os.environ["MASTER_ADDR"] = "localhost"
        os.environ["MASTER_PORT"] = "12355"
        dist.init_process_group("gloo", rank=rank, world_size=world_size)


    class ToyModel(nn.Module):
        def __init__(self):
            super(ToyModel, self).__init__()
            self.net1 = nn.Linear(10, 10)
            self.relu = nn.ReLU()
            self.net2 = nn.Linear(10, 5)

        def forward(self, x):
            return self.net2(self.relu(self.net1(x)))


    def demo_checkpoint(rank, world_size):
        setup(rank, world_size)
        torch.manual_seed(rank)  # different weights: DDP copies rank 0's
        ddp_model = DDP(ToyModel())
        CHECKPOINT_PATH = tempfile.gettempdir() + "/model.checkpoint"
        if rank == 0:
            torch.save(ddp_model.state_dict(), CHECKPOINT_PATH)
        dist.barrier()
        map_location = {"cuda:%d" % 0: "cuda:%d" % rank} if torch.cuda.is_available() else None
        ddp_model.load_state_dict(torch.load(CHECKPOINT_PATH, map_location=map_location, weights_only=True))
        loss_fn = nn.MSELoss()
        optimizer = optim.SGD(ddp_model.parameters(), lr=0.001)
        optimizer.zero_grad()
        outputs = ddp_model(torch.randn(20, 10))
        labels = torch.randn(20, 5)
        loss_fn(outputs, labels).backward()
        optimizer.step()
        weights = [None] * world_size
        dist.all_gather_object(weights, ddp_model.module.net1.weight.detach().numpy().tolist())
        dist.barrier()  # every rank has loaded it before rank 0 removes it
        if rank == 0:
            os.remove(CHECKPOINT_PATH)
        dist.destroy_process_group()
        print(f"rank {rank} finished, weights equal {weights[0] == weights[1]}", flush=True)


    if __name__ == "__main__":
        mp.spawn(demo_checkpoint, args=(2,), nprocs=2, join=True)
"""


def test_the_ddp_tutorial_s_checkpoint_demo_runs_unchanged(tmp_path):
    script = write_script(tmp_path, TUTORIAL)
    code, out = run([PYTHON, str(script)], timeout=90, cwd=tmp_path, TMPDIR=str(tmp_path))
    assert code == 0, out
    for rank in (0, 1):
        assert f"rank {rank} finished, weights equal True" in out, out
    assert not (tmp_path / "model.checkpoint").exists()
