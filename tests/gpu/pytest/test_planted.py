"""A Triton kernel that writes past the end of its output tensor (into the next tensor of the
caching allocator's segment) and its masked twin, as pytest tests. Natively both pass (the
overrun lands in memory PyTorch owns); under `pytest --cucheck memcheck` the overrun test must
fail with memcheck's invalid-global-write naming it, and the twin must pass. Neither test
synchronizes: the plugin's synchronization after the test body reads the launch back while the
test is still the running one. tests/gpu/pytest/run.sh runs it."""
import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")
tl = pytest.importorskip("triton.language")

if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, MASKED: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    if MASKED:
        tl.store(out_ptr + offs, x * 2.0, mask=offs < n)
    else:
        tl.store(out_ptr + offs, x * 2.0)  # BUG: no mask, the last block writes past `out`


def scale(masked):
    n = 1000  # not a multiple of BLOCK: the last block of 256 overruns by 24 floats
    x = torch.rand(n, device="cuda")
    out = torch.empty(n, device="cuda")
    neighbour = torch.zeros(4096, device="cuda")  # the next tensor of the segment
    scale_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256, MASKED=masked)
    return x, out, neighbour


def test_overrun():
    scale(masked=False)


def test_overrun_clean():
    x, out, _ = scale(masked=True)
    assert torch.allclose(out, x * 2.0)
