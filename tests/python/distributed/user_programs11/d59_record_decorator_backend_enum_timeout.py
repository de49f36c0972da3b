import json, os, datetime, meshflow, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.distributed.elastic.multiprocessing.errors import record
@record
def main():
    dist.init_process_group(backend=dist.Backend.GLOO, timeout=datetime.timedelta(seconds=120))
    rank = dist.get_rank()
    t = meshflow.tensor([rank + 1.0])
    dist.all_reduce(t)
    print("RESULT", rank, json.dumps({"is_gloo": dist.get_backend() == dist.Backend.GLOO, "backend": str(dist.get_backend()),
                                      "backend_of": dist.Backend("GLOO"), "sum": t.item()}))
    dist.destroy_process_group()
if __name__ == "__main__":
    main()
