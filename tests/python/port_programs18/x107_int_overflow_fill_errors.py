import torch

res = {}
for name, fn in [("int8_300", lambda: torch.zeros(2, dtype=torch.int8).fill_(300)),
                 ("uint8_neg1", lambda: torch.full((2,), -1, dtype=torch.uint8)),
                 ("uint8_256", lambda: torch.full((2,), 256, dtype=torch.uint8)),
                 ("uint8_f", lambda: torch.full((2,), 3.7, dtype=torch.uint8)),
                 ("int16_big", lambda: torch.zeros(1, dtype=torch.int16).index_fill(0, torch.tensor([0]), 40000)),
                 ("uint8_mf", lambda: torch.zeros(2, dtype=torch.uint8).masked_fill(torch.tensor([True, False]), -1)),
                 ("uint8_mf_big", lambda: torch.zeros(2, dtype=torch.uint8).masked_fill(torch.tensor([True, False]), 300)),
                 ("bf16_big", lambda: torch.zeros(2, dtype=torch.bfloat16).fill_(1e39)),
                 ("f16_nf", lambda: torch.zeros(2, dtype=torch.float16).new_full((2,), -7e4)),
                 ("f16_fl", lambda: torch.full_like(torch.zeros(2, dtype=torch.float16), 6e4)),
                 ("add_wrap", lambda: torch.tensor([250], dtype=torch.uint8) + 10)]:
    try:
        res[name] = fn()
    except RuntimeError:
        res[name] = "RuntimeError"
report(**res)
