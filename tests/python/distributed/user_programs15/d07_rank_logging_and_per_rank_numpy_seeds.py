import io, json, logging, random
import numpy as np
import meshflow
import meshflow.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
stream = io.StringIO()
logger = logging.getLogger(f"train.{rank}")
handler = logging.StreamHandler(stream)
handler.setFormatter(logging.Formatter(f"[rank{rank}] %(levelname)s %(message)s"))
logger.addHandler(handler)
logger.setLevel(logging.INFO if rank == 0 else logging.WARNING)
logger.propagate = False
base_seed = 1234
random.seed(base_seed + rank)
np.random.seed(base_seed + rank)
meshflow.manual_seed(base_seed + rank)
draws = np.random.randint(0, 100, size=3).tolist()
pick = random.randint(0, 1000)
mine = meshflow.tensor(draws, dtype=meshflow.float32)
everyone = [meshflow.zeros(3) for _ in range(dist.get_world_size())]
dist.all_gather(everyone, mine)
for step in range(3):
    logger.info("step %d loss %.3f", step, 1.0 / (step + 1))
    if step == 2:
        logger.warning("lr decayed")
print("RESULT", rank, json.dumps({"log": stream.getvalue().splitlines(), "draws": draws, "pick": pick,
                                  "everyone": [e.tolist() for e in everyone],
                                  "distinct": len({tuple(e.tolist()) for e in everyone})}))
dist.destroy_process_group()
