import torch

spec = data(2, 8, 6).abs() ** 2 + 1e-3
amin, top_db = 1e-10, 20.0
db = 10.0 * torch.log10(torch.clamp(spec, min=amin))
db -= 10.0 * torch.log10(torch.clamp(spec.amax(dim=(-2, -1), keepdim=True), min=amin))
db = torch.max(db, db.amax(dim=(-2, -1), keepdim=True) - top_db)
mag_db = 20 * torch.log10(spec.sqrt())
back = torch.pow(10.0, db / 10.0)
report(db=db[0, :2], min=db.amin((-2, -1)), mag_db=mag_db[1, 0], back=back[1, 3], log2=torch.log2(spec[0, 0]), log1p=torch.log1p(spec[0, 1]))
