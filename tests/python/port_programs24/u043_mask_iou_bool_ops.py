import torch

H, W = 6, 7
yy, xx = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
m1 = (yy < 4) & (xx < 5)
m2 = (yy >= 2) & (xx >= 2)
m3 = ((yy - 3) ** 2 + (xx - 3) ** 2) <= 4
masks = torch.stack([m1, m2, m3])
flat = masks.flatten(1).float()
inter = flat @ flat.T
area = flat.sum(1)
iou = inter / (area[:, None] + area[None, :] - inter)
xor = masks[0] ^ masks[1]
diff = masks[0] & ~masks[1]
anyc = masks.any(0)
allc = masks.all(0)
rows = torch.any(masks, dim=2)
cols = torch.any(masks, dim=1)
bbox = []
for i in range(3):
    r = torch.where(rows[i])[0]
    c = torch.where(cols[i])[0]
    bbox.append([c.min().item(), r.min().item(), c.max().item() + 1, r.max().item() + 1])
paste = torch.zeros(H, W, dtype=torch.long)
for i, m in enumerate(masks):
    paste[m] = i + 1
report(iou=iou, xor=xor.sum(), diff=diff.sum(), anyc=anyc.sum(), allc=allc, bbox=bbox, paste=paste,
       logical=torch.logical_xor(m1, m3).sum(), count=torch.count_nonzero(masks, dim=(1, 2)), dtype=(m1 * 2).dtype, sum_dtype=m1.sum().dtype)
