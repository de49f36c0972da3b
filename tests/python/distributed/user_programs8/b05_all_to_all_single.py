import json, meshflow as mf
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
inp = mf.arange(4, dtype=mf.float32) + rank * 4
out = mf.empty(4)
dist.all_to_all_single(out, inp)
# uneven splits
if rank == 0:
    inp2, ins, outs = mf.tensor([1., 2., 3.]), [1, 2], [1, 3]
else:
    inp2, ins, outs = mf.tensor([4., 5., 6., 7.]), [3, 1], [2, 1]
out2 = mf.empty(sum(outs))
dist.all_to_all_single(out2, inp2, output_split_sizes=outs, input_split_sizes=ins)
print("RESULT", rank, json.dumps({"even": out.tolist(), "uneven": out2.tolist()}))
dist.destroy_process_group()
