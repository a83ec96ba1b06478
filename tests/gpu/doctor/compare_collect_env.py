"""Compare `python -m torch.utils.collect_env` with `cucheck doctor --python --json`: for every
CUDA-related field collect_env prints, check that doctor reports the same value. Prints one
line per field (SAME / GAP / DIFFERS) and exits 1 if any field is missing from doctor.

usage: compare_collect_env.py COLLECT_ENV.txt DOCTOR.json
"""
import json
import re
import sys


def field(text, name):
    m = re.search(r"^" + re.escape(name) + r":\s*(.*)$", text, re.M)
    return m.group(1).strip() if m else None


def main():
    env_text = open(sys.argv[1]).read()
    doc = json.load(open(sys.argv[2]))
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
    check("CUDA_MODULE_LOADING", v, True, "(doctor prints the variable and its effect)")
    v = field(env_text, "Nvidia driver version")
    check("Nvidia driver version", v, v in (None, "Could not collect") or v == doc["driver"].get("version"))
    m = re.search(r"^GPU models and configuration:\s*(.*?)(?:^\S[^\n]*:|\Z)", env_text, re.M | re.S)
    if m:
        names = re.findall(r"GPU \d+: ([^(\n]+)", m.group(1)) or [m.group(1).strip()]
        got = [g["name"] for g in doc["driver"]["gpus"]]
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
