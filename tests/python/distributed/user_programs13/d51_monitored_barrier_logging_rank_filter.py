import json, logging, io, meshflow, meshflow.distributed as dist
from datetime import timedelta

dist.init_process_group("gloo", timeout=timedelta(seconds=60))
rank = dist.get_rank()
stream = io.StringIO()
logger = logging.getLogger("train")
handler = logging.StreamHandler(stream)
handler.setFormatter(logging.Formatter(f"[rank{rank}] %(message)s"))
logger.addHandler(handler)
logger.setLevel(logging.INFO if rank == 0 else logging.WARNING)
t = meshflow.tensor([float(rank + 1)])
dist.all_reduce(t)
logger.info("sum %.1f", t.item())
logger.warning("done %d", rank)
dist.monitored_barrier(timeout=timedelta(seconds=30))
dist.barrier()
print("RESULT", rank, json.dumps({"log": stream.getvalue().splitlines(), "sum": t.item()}))
dist.destroy_process_group()
