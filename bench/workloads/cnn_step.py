"""Benchmark workload: training steps of a small ResNet-like CNN in PyTorch (cuDNN convolutions,
BatchNorm, ReLU, residual blocks) on random 3x64x64 images: a 3x3 stem, --blocks basic blocks
per stage at widths 64, 128, 256, 512 (stride 2 between stages), global average pooling and a
100-class linear head; batch 64, cross-entropy, SGD with momentum 0.9, Nesterov, weight decay.
--channels-last uses the NHWC memory format, --amp bf16 autocast, --cudnn-benchmark lets cuDNN
time its algorithms (during the warm-up; off by default, so that every process runs the same
ones). Prints BENCH_TIME_MS and the other BENCH_ lines of torch_bench.py; without torch or CUDA,
BENCH_SKIPPED.
"""
import sys

import torch_bench


def build(torch, args, dev):
    """The model, its optimizer and data on dev; returns step(), which returns the loss."""
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.short = None
            if stride != 1 or cin != cout:
                self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                           nn.BatchNorm2d(cout))

        def forward(self, x):
            y = torch.relu(self.bn1(self.conv1(x)))
            y = self.bn2(self.conv2(y))
            return torch.relu(y + (x if self.short is None else self.short(x)))

    layers = [nn.Conv2d(3, 64, 3, 1, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU(inplace=True)]
    cin = 64
    for i, width in enumerate((64, 128, 256, 512)):
        for b in range(args.blocks):
            layers.append(Block(cin, width, 2 if i > 0 and b == 0 else 1))
            cin = width
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, args.classes)]
    model = nn.Sequential(*layers).to(dev)
    fmt = torch.channels_last if args.channels_last else torch.contiguous_format
    model = model.to(memory_format=fmt)
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, nesterov=True,
                          weight_decay=5e-4)
    images = torch.randn(args.batch, 3, args.size, args.size, device=dev)
    images = images.contiguous(memory_format=fmt)
    labels = torch.randint(0, args.classes, (args.batch,), device=dev)
    loss_fn = nn.CrossEntropyLoss()

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast(dev.type, dtype=torch.bfloat16, enabled=args.amp):
            loss = loss_fn(model(images).float(), labels)
        loss.backward()
        opt.step()
        return loss

    return step


def main():
    ap = torch_bench.parser(__doc__)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--size", type=int, default=64, help="image height and width")
    ap.add_argument("--blocks", type=int, default=2, help="basic blocks per stage")
    ap.add_argument("--classes", type=int, default=100)
    ap.add_argument("--channels-last", action="store_true")
    ap.add_argument("--amp", action="store_true", help="bf16 autocast")
    ap.add_argument("--cudnn-benchmark", action="store_true")
    args = ap.parse_args()
    torch = torch_bench.load_torch()
    if torch is None:
        return 0
    torch.backends.cudnn.benchmark = args.cudnn_benchmark
    step = build(torch, args, torch.device("cuda"))
    return torch_bench.measure(torch, "cnn_step", args, step)


if __name__ == "__main__":
    sys.exit(main())
