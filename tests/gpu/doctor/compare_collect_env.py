"""Compare `python -m torch.utils.collect_env` with `cucheck doctor --python --json`: for every
CUDA-related field collect_env prints, check that doctor reports the same value. Prints one
line per field (SAME / GAP / DIFFERS) and exits 1 if any field is missing from doctor.

usage: compare_collect_env.py COLLECT_ENV.txt DOCTOR.json   (exit 2 on unreadable input)
"""
import json
import re
import sys


def field(text, name):
    m = re.search(r"^" + re.escape(name) + r":\s*(.*)$", text, re.M)
    return m.group(1).strip() if m else None


def module_loading_same(value, doc):
    """doctor reports CUDA_MODULE_LOADING (its environment entry and a verdict that says what
    the value does) and agrees with collect_env's value: the same, or unset in doctor's process
    where collect_env reads LAZY (torch sets LAZY when it initializes CUDA with the variable
    unset; unset means lazy loading since CUDA 12.2, which doctor's verdict says)."""
    env = doc.get("environment")
    if not isinstance(env, dict) or "CUDA_MODULE_LOADING" not in env:
        return False
    if not any(isinstance(f, dict) and f.get("subject") == "CUDA_MODULE_LOADING"
               for f in doc.get("verdicts") or []):
        return False
    if value in (None, "N/A", "Could not collect"):
        return True
    got = env["CUDA_MODULE_LOADING"]
    return value == got or (got in (None, "") and value == "LAZY")


def main():
    if len(sys.argv) != 3:
        print("usage: compare_collect_env.py COLLECT_ENV.txt DOCTOR.json")
        return 2
    try:
        with open(sys.argv[1], encoding="utf-8", errors="replace") as fh:
            env_text = fh.read()
        with open(sys.argv[2], encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError) as err:
        print("compare_collect_env.py: cannot read the input: %s" % err)
        return 2
    if not isinstance(doc, dict) or not field(env_text, "PyTorch version"):
        print("compare_collect_env.py: %s is no doctor JSON or %s no collect_env output"
              % (sys.argv[2], sys.argv[1]))
        return 2
    blob = json.dumps(doc)
    torch = (doc.get("python") or {}).get("torch") or {}
    gaps = 0

    def check(name, value, ok, note=""):
        nonlocal gaps
        state = "SAME" if ok else "GAP"
        if not ok:
            gaps += 1
        print(f"{state:5} {name}: collect_env={value!r} {note}")

    v = field(env_text, "PyTorch version")
    check("PyTorch version", v, v is None or v == torch.get("version"))
    v = field(env_text, "CUDA used to build PyTorch")
    check("CUDA used to build PyTorch", v, v in (None, "None", "Could not collect") or v == torch.get("cuda"))
    v = field(env_text, "Is CUDA available")
    check("Is CUDA available", v, v is None or v == torch.get("cuda_available"))
    v = field(env_text, "CUDA runtime version")  # collect_env: nvcc --version on PATH
    rel = (doc.get("nvcc") or "")
    check("CUDA runtime version (nvcc)", v, v in (None, "Could not collect", "No CUDA") or (v.split()[0] in rel))
    v = field(env_text, "CUDA_MODULE_LOADING set to")
    check("CUDA_MODULE_LOADING", v, module_loading_same(v, doc),
          "(doctor: %r)" % (doc.get("environment") or {}).get("CUDA_MODULE_LOADING"))
    v = field(env_text, "Nvidia driver version")
    check("Nvidia driver version", v, v in (None, "Could not collect") or v == (doc.get("driver") or {}).get("version"))
    m = re.search(r"^GPU models and configuration:\s*(.*?)(?:^\S[^\n]*:|\Z)", env_text, re.M | re.S)
    if m:
        names = re.findall(r"GPU \d+: ([^(\n]+)", m.group(1)) or [m.group(1).strip()]
        got = [g.get("name") for g in (doc.get("driver") or {}).get("gpus") or []]
        for n in names:
            n = n.strip()
            check("GPU model", n, n in got or n in ("Could not collect",))
    m = re.search(r"^cuDNN version:\s*(.*?)(?:^\S[^\n]*:|\Z)", env_text, re.M | re.S)
    if m:
        vers = re.findall(r"(\d+\.\d+\.\d+)", m.group(1))
        for ver in vers:
            check("cuDNN version", ver, ver in blob)
    m = re.search(r"^Versions of relevant libraries:\s*(.*?)(?:^\S[^\n]*:|\Z)", env_text, re.M | re.S)
    if m:
        pkgs = set(p.lower() for p in (doc.get("python") or {}).get("packages", []))
        for line in m.group(1).splitlines():
            mm = re.match(r"\[(?:pip3|pip|conda)\]\s+(\S+)==(\S+)", line.strip())
            if mm and re.match(r"(nvidia|torch|triton)", mm.group(1).lower()):
                key = f"{mm.group(1)}=={mm.group(2)}".lower()
                check("package", key, key in pkgs)
    print(f"{gaps} gap(s)")
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())
