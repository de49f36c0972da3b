import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def is_main():
    return not dist.is_initialized() or dist.get_rank() == 0
out_dir = os.path.join(tempfile.gettempdir(), "r14_d39")
if is_main():
    os.makedirs(out_dir, exist_ok=True)
    vocab = {w: i for i, w in enumerate(sorted("the cat sat on a mat".split()))}
    with open(os.path.join(out_dir, "vocab.json"), "w") as f:
        json.dump(vocab, f)
    model = nn.Embedding(len(vocab), 3)
    with meshflow.no_grad():
        model.weight.copy_(meshflow.arange(len(vocab) * 3, dtype=meshflow.float32).view(-1, 3) / 10)
    meshflow.save(model.state_dict(), os.path.join(out_dir, "emb.pt"))
dist.barrier()
with open(os.path.join(out_dir, "vocab.json")) as f:
    vocab = json.load(f)
emb = nn.Embedding(len(vocab), 3)
emb.load_state_dict(meshflow.load(os.path.join(out_dir, "emb.pt"), map_location="cpu", weights_only=True))
ids = meshflow.tensor([vocab[w] for w in "the cat sat".split()])
v = emb(ids).sum(0)
dist.all_reduce(v)
print("RESULT", rank, json.dumps({"vocab": vocab, "v": [round(x, 5) for x in v.tolist()]}))
dist.barrier()
if is_main():
    os.remove(os.path.join(out_dir, "vocab.json")); os.remove(os.path.join(out_dir, "emb.pt")); os.rmdir(out_dir)
dist.destroy_process_group()
