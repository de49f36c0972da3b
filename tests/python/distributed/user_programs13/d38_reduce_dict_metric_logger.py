import json, numpy as np, meshflow, meshflow.distributed as dist

def is_dist_avail_and_initialized():
    return dist.is_available() and dist.is_initialized()

def get_world_size():
    return dist.get_world_size() if is_dist_avail_and_initialized() else 1

def reduce_dict(input_dict, average=True):
    world_size = get_world_size()
    if world_size < 2:
        return input_dict
    with meshflow.inference_mode():
        names = sorted(input_dict.keys())
        values = meshflow.stack([input_dict[k] for k in names], dim=0)
        dist.all_reduce(values)
        if average:
            values /= world_size
        return {k: v for k, v in zip(names, values)}

class SmoothedValue:
    def __init__(self):
        self.total, self.count, self.values = 0.0, 0, []
    def update(self, value, n=1):
        self.values.append(value); self.count += n; self.total += value * n
    def synchronize_between_processes(self):
        t = meshflow.tensor([self.count, self.total], dtype=meshflow.float64, device="cpu")
        dist.barrier()
        dist.all_reduce(t)
        t = t.tolist()
        self.count = int(t[0]); self.total = t[1]
    @property
    def global_avg(self):
        return self.total / self.count

dist.init_process_group("gloo")
rank = dist.get_rank()
losses = {"loss_cls": meshflow.tensor(0.5 + rank), "loss_box": meshflow.tensor(2.0 * rank + 1), "loss_obj": meshflow.tensor(0.25)}
reduced = reduce_dict(losses)
total = sum(v for v in reduced.values())
meter = SmoothedValue()
for i in range(3 + rank):
    meter.update(float(i + rank), n=2)
meter.synchronize_between_processes()
print("RESULT", rank, json.dumps({"reduced": {k: round(v.item(), 4) for k, v in reduced.items()}, "total": round(total.item(), 4),
                                  "avg": round(meter.global_avg, 4), "count": meter.count}))
dist.destroy_process_group()
