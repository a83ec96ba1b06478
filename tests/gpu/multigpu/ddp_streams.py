"""DDP and NCCL stream-ordering cases for streamcheck (W2-8), run under torchrun (any number of
ranks; one GPU per rank, GPU LOCAL_RANK; NCCL backend; NCCL_NVLS_ENABLE=0 is set here):

  clean          a DistributedDataParallel training loop (5 steps, AdamW), then a tensor
                 written on a side stream and all-reduced after the current stream waited for
                 the side stream, then an async all-reduce whose result is used after work.wait()
  side-stream    a tensor written on a side stream is all-reduced without the current stream
                 waiting for it: ProcessGroupNCCL orders its stream after the current stream
                 only (streamcheck: race between the fill kernel and ncclAllReduce)
  async-nowait   dist.all_reduce(t, async_op=True), then t is read on the current stream
                 before work.wait() (streamcheck: race between ncclAllReduce and the reader)

Prints "ddp_streams CASE rank R: done" and exits 0. The runner (run_multigpu.py) checks
beforehand that torch.distributed has NCCL and that there are enough GPUs."""
import os
import sys

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")  # never NVLink multicast

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402

CASES = ("clean", "side-stream", "async-nowait")


def ddp_loop(dev):
    model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.GELU(),
                                torch.nn.Linear(512, 64)).to(dev)
    ddp = torch.nn.parallel.DistributedDataParallel(model, device_ids=[dev.index])
    opt = torch.optim.AdamW(ddp.parameters(), lr=1e-3)
    gen = torch.Generator(device=dev).manual_seed(dist.get_rank())
    for _ in range(5):
        x = torch.randn(32, 256, device=dev, generator=gen)
        loss = ddp(x).square().mean()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return float(loss)


def side_stream(dev, wait):
    side = torch.cuda.Stream(device=dev)
    t = torch.empty(1 << 20, device=dev)
    with torch.cuda.stream(side):
        t.fill_(float(dist.get_rank() + 1))  # written on the side stream
    if wait:
        torch.cuda.current_stream(dev).wait_stream(side)
    dist.all_reduce(t)  # BUG (side-stream): the NCCL stream waits for the current stream only
    torch.cuda.synchronize(dev)
    return float(t[0])


def async_use(dev, wait):
    t = torch.ones(1 << 20, device=dev)
    work = dist.all_reduce(t, async_op=True)
    if wait:
        work.wait()
    u = t * 2.0  # BUG (async-nowait): reads t while the all-reduce may still write it
    work.wait()
    torch.cuda.synchronize(dev)
    return float(u[0])


def main():
    case = sys.argv[1] if len(sys.argv) > 1 else "clean"
    if case not in CASES:
        print("usage: ddp_streams.py %s" % "|".join(CASES), file=sys.stderr)
        return 2
    local = int(os.environ.get("LOCAL_RANK", "0"))
    dev = torch.device("cuda", local % torch.cuda.device_count())
    torch.cuda.set_device(dev)
    dist.init_process_group("nccl", device_id=dev)
    try:
        if case == "clean":
            ddp_loop(dev)
            side_stream(dev, wait=True)
            async_use(dev, wait=True)
        elif case == "side-stream":
            side_stream(dev, wait=False)
        else:
            async_use(dev, wait=False)
        dist.barrier()
    finally:
        dist.destroy_process_group()
    print("ddp_streams %s rank %d: done" % (case, int(os.environ.get("RANK", "0"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
