import torch

imgs = torch.sigmoid(data(6, 3, 4, 4, seed=1))
nrow, pad = 3, 1
n, c, h, w = imgs.shape
rows = (n + nrow - 1) // nrow
grid = torch.full((c, rows * (h + pad) + pad, nrow * (w + pad) + pad), 0.5)
k = 0
for y in range(rows):
    for x in range(nrow):
        if k >= n:
            break
        grid.narrow(1, y * (h + pad) + pad, h).narrow(2, x * (w + pad) + pad, w).copy_(imgs[k])
        k += 1
u8 = grid.mul(255).add_(0.5).clamp_(0, 255).permute(1, 2, 0).to(torch.uint8)
lo, hi = imgs.amin((1, 2, 3), keepdim=True), imgs.amax((1, 2, 3), keepdim=True)
scaled = (imgs - lo) / (hi - lo)
report(shape=list(grid.shape), g=grid[0, :3, :6], u8=u8[1, :6, 0], s=scaled[0, 0, 0], sm=scaled.amax().item())
