/* The Python side of doctor: runs an interpreter with an embedded script that prints, one
 * "key<TAB>value" per line, its version, its site-packages directories, the installed
 * CUDA-related distributions and (with --python) PyTorch's version, CUDA build, cuDNN, NCCL,
 * arch list, library folder and CUDA availability. No crash and no error if torch is absent.
 * Also: the nvcc found on PATH (what collect_env reports as "CUDA runtime version"). */
#include "doctor/probe.h"
#include "doctor/probe_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char python_script[] =
    "import sys, os\n"
    "def out(k, v):\n"
    "    v = str(v).replace('\\n', ' ').replace('\\t', ' ').replace('\\r', ' ')\n"
    "    sys.stdout.write(k + '\\t' + v + '\\n')\n"
    "out('python_version', sys.version.split()[0])\n"
    "try:\n"
    "    import platform\n"
    "    out('platform', platform.platform())\n"
    "except Exception:\n"
    "    pass\n"
    "sites = []\n"
    "try:\n"
    "    import site\n"
    "    sites = list(site.getsitepackages())\n"
    "    sites.append(site.getusersitepackages())\n"
    "except Exception:\n"
    "    pass\n"
    "for p in sys.path:\n"
    "    if p.endswith(('site-packages', 'dist-packages')) and p not in sites:\n"
    "        sites.append(p)\n"
    "for s in sites:\n"
    "    if isinstance(s, str) and os.path.isdir(s):\n"
    "        out('site', os.path.realpath(s))\n"
    "try:\n"
    "    import importlib.metadata as md\n"
    "    seen = set()\n"
    "    for d in md.distributions():\n"
    "        n = d.metadata.get('Name') or ''\n"
    "        l = n.lower()\n"
    "        if l in seen:\n"
    "            continue\n"
    "        seen.add(l)\n"
    "        if l.startswith(('nvidia', 'torch', 'triton', 'cuda', 'cupy', 'jax', 'numpy',\n"
    "                         'pytorch', 'tensorflow', 'onnxruntime')):\n"
    "            out('pkg', n + '==' + str(d.version))\n"
    "except Exception as e:\n"
    "    out('pkg_error', repr(e))\n"
    "if os.environ.get('CUCHECK_DOCTOR_TORCH') == '1':\n"
    "    try:\n"
    "        import torch\n"
    "    except Exception as e:\n"
    "        out('torch_error', type(e).__name__ + ': ' + str(e))\n"
    "    else:\n"
    "        def g(k, f):\n"
    "            try:\n"
    "                out(k, f())\n"
    "            except Exception as e:\n"
    "                out(k + '_error', type(e).__name__ + ': ' + str(e))\n"
    "        out('torch_version', torch.__version__)\n"
    "        g('torch_lib', lambda: os.path.join(os.path.dirname(torch.__file__), 'lib'))\n"
    "        g('torch_cuda', lambda: torch.version.cuda or '')\n"
    "        g('torch_debug', lambda: torch.version.debug)\n"
    "        g('torch_cudnn', lambda: torch.backends.cudnn.version())\n"
    "        def archs():\n"
    "            f = getattr(torch._C, '_cuda_getArchFlags', None)\n"
    "            if f is not None:\n"
    "                return ' '.join((f() or '').split())\n"
    "            return ' '.join(torch.cuda.get_arch_list())\n"
    "        g('torch_archs', archs)\n"
    "        def nccl():\n"
    "            v = torch.cuda.nccl.version()\n"
    "            return '.'.join(str(x) for x in v) if isinstance(v, tuple) else v\n"
    "        g('torch_nccl', nccl)\n"
    "        g('cuda_available', lambda: torch.cuda.is_available())\n"
    "        g('device_count', lambda: torch.cuda.device_count())\n";

static void copy_field(char *dst, size_t len, const char *v)
{
    snprintf(dst, len, "%s", v);
}

void cc_doc_parse_python_output(const char *text, cc_doc_python *p)
{
    const char *line = text;
    while (line && *line) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        char buf[PATH_MAX + 128];
        if (n >= sizeof buf)
            n = sizeof buf - 1;
        memcpy(buf, line, n);
        buf[n] = 0;
        line = nl ? nl + 1 : NULL;
        char *tab = strchr(buf, '\t');
        if (!tab)
            continue;
        *tab = 0;
        const char *k = buf, *v = tab + 1;
        if (strcmp(k, "python_version") == 0)
            copy_field(p->python_version, sizeof p->python_version, v);
        else if (strcmp(k, "platform") == 0)
            copy_field(p->platform, sizeof p->platform, v);
        else if (strcmp(k, "site") == 0 && p->nsites < CC_DOC_MAX_SITES)
            copy_field(p->sites[p->nsites++], sizeof p->sites[0], v);
        else if (strcmp(k, "pkg") == 0 && p->npkgs < CC_DOC_MAX_PKGS)
            copy_field(p->pkgs[p->npkgs++], sizeof p->pkgs[0], v);
        else if (strcmp(k, "torch_error") == 0)
            copy_field(p->torch_error, sizeof p->torch_error, v);
        else if (strcmp(k, "torch_version") == 0) {
            copy_field(p->torch_version, sizeof p->torch_version, v);
            p->torch_found = 1;
        } else if (strcmp(k, "torch_lib") == 0)
            copy_field(p->torch_lib, sizeof p->torch_lib, v);
        else if (strcmp(k, "torch_cuda") == 0)
            copy_field(p->torch_cuda, sizeof p->torch_cuda, v);
        else if (strcmp(k, "torch_debug") == 0)
            copy_field(p->torch_debug, sizeof p->torch_debug, v);
        else if (strcmp(k, "torch_cudnn") == 0)
            copy_field(p->torch_cudnn, sizeof p->torch_cudnn, v);
        else if (strcmp(k, "torch_archs") == 0)
            copy_field(p->torch_archs, sizeof p->torch_archs, v);
        else if (strcmp(k, "torch_nccl") == 0)
            copy_field(p->torch_nccl, sizeof p->torch_nccl, v);
        else if (strcmp(k, "cuda_available") == 0)
            copy_field(p->cuda_available, sizeof p->cuda_available, v);
        else if (strcmp(k, "device_count") == 0)
            copy_field(p->device_count, sizeof p->device_count, v);
    }
}

void cc_doc_probe_python(cc_doc_report *r, int want_torch)
{
    cc_doc_python *p = &r->python;
    const char *interp = r->opt.interpreter ? r->opt.interpreter : "python3";
    snprintf(p->interpreter, sizeof p->interpreter, "%s", interp);
    size_t cap = 1 << 18;
    char *out = malloc(cap);
    if (!out)
        return;
    char *argv[] = {(char *)interp, (char *)"-c", (char *)python_script, NULL};
    char *env[] = {want_torch ? (char *)"CUCHECK_DOCTOR_TORCH=1" : (char *)"CUCHECK_DOCTOR_TORCH=0",
                   NULL};
    int st = 0;
    char err[256];
    if (cc_doc_run_capture(argv, env, 0, 180000, out, cap, &st, err, sizeof err) != 0) {
        snprintf(p->error, sizeof p->error, "%s", err);
    } else if (st != 0) {
        snprintf(p->error, sizeof p->error, "%s exited with status %d", interp, st);
        cc_doc_parse_python_output(out, p);
    } else {
        p->ran = 1;
        cc_doc_parse_python_output(out, p);
    }
    free(out);
}

void cc_doc_nvcc_version(char *out, size_t len)
{
    out[0] = 0;
    const char *path = getenv("PATH");
    char found[PATH_MAX] = "";
    if (path) {
        char *copy = strdup(path);
        for (char *save = NULL, *d = copy ? strtok_r(copy, ":", &save) : NULL; d && !found[0];
             d = strtok_r(NULL, ":", &save)) {
            char cand[PATH_MAX];
            if (snprintf(cand, sizeof cand, "%s/nvcc", d) < (int)sizeof cand &&
                access(cand, X_OK) == 0)
                snprintf(found, sizeof found, "%s", cand);
        }
        free(copy);
    }
    if (!found[0])
        return;
    char buf[4096], err[160];
    int st = 0;
    char *argv[] = {found, (char *)"--version", NULL};
    if (cc_doc_run_capture(argv, NULL, 0, 20000, buf, sizeof buf, &st, err, sizeof err) != 0)
        return;
    const char *rel = strstr(buf, "release ");
    if (!rel) {
        snprintf(out, len, "unknown version (%s)", found);
        return;
    }
    size_t n = strcspn(rel, "\n");
    snprintf(out, len, "%.*s (%s)", (int)(n > 60 ? 60 : n), rel, found);
}
