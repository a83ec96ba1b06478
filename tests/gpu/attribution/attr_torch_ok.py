# The clean twin of attr_torch_index.py: indexing in range, a few training steps.
import sys
import torch

if not torch.cuda.is_available():
    print("BENCH_SKIPPED no CUDA")
    sys.exit(0)
x = torch.randn(1000, device="cuda")
idx = torch.tensor([5, 999], device="cuda")
model = torch.nn.Linear(64, 64).cuda()
opt = torch.optim.AdamW(model.parameters())
for _ in range(5):
    loss = model(torch.randn(32, 64, device="cuda")).square().mean() + (x * 2)[idx].sum()
    loss.backward()
    opt.step()
    opt.zero_grad()
torch.cuda.synchronize()
print("ok")
