import json, meshflow
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
if rank == 0:
    dist.send_object_list([{"epoch": 3, "best": 0.25}, [1, 2, 3]], dst=1)
    got = [None]
    dist.recv_object_list(got, src=1)
else:
    got = [None, None]
    dist.recv_object_list(got, src=0)
    dist.send_object_list([{"ack": got[0]["epoch"] + 1}], dst=0)
print("RESULT", rank, json.dumps({"got": got}))
dist.destroy_process_group()
