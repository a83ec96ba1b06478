/* `cucheck doctor`: option parsing and exit status for the environment check in src/doctor
 * (exit 0 = no FAIL verdict, 1 = at least one FAIL, 2 = usage error); the agent it checks is the
 * one `cucheck TOOL` would inject (cli/agent_locate.h). `--cuda-probe` is the program of the
 * agent's injection test (doctor/probe.h), not meant for users. */
#include "cli/agent_locate.h"
#include "cli/commands.h"
#include "doctor/doctor.h"
#include "doctor/probe.h"

#include <unistd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: cucheck doctor [--binary FILE...] [--python [INTERPRETER]] [--cc X.Y]...\n"
            "                      [--no-search] [--no-agent] [--json] [-- PROGRAM [ARGS...]]\n"
            "Checks the driver, GPUs, CUDA libraries (loaded and asked for their versions),\n"
            "binaries' kernel images, CUDA environment variables and cucheck's agent (the\n"
            "Compute Sanitizer library and CUPTI it loads, a test process with it injected,\n"
            "other tools clients), and prints verdicts with fixes. Works without a GPU or\n"
            "driver (GPU checks are then skipped).\n"
            "  --binary FILE...  check these executables, libraries, .fatbin or .cubin files\n"
            "  --python [PY]     also probe PyTorch in this interpreter (default python3)\n"
            "  --cc X.Y          also check images against this compute capability\n"
            "  --no-search       do not search the system for CUDA libraries\n"
            "  --no-agent        do not check the agent (no injection test)\n"
            "  --json            one JSON object instead of text\n"
            "  -- PROGRAM ...    run PROGRAM and check exactly the libraries it loads\n"
            "exit status: 0 no FAIL verdict, 1 a FAIL verdict, 2 usage error\n");
}

static int bad(const char *msg, const char *arg)
{
    fprintf(stderr, "cucheck doctor: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    usage(stderr);
    return 2;
}

int cc_cmd_doctor(int argc, char **argv)
{
    cc_doc_report *r = calloc(1, sizeof *r);
    const char **bins = calloc((size_t)(argc > 0 ? argc : 1), sizeof *bins);
    if (!r || !bins) {
        fprintf(stderr, "cucheck doctor: out of memory\n");
        free(r);
        free(bins);
        return 2;
    }
    cc_doc_options *o = &r->opt;
    o->binaries = bins;
    int rc = -1;
    for (int i = 1; i < argc && rc < 0; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            if (i + 1 >= argc)
                rc = bad("no program after --", NULL);
            else
                o->program = argv + i + 1;
            break;
        } else if (strcmp(a, "--binary") == 0) {
            if (i + 1 >= argc || argv[i + 1][0] == '-')
                rc = bad("--binary needs a file", NULL);
            while (rc < 0 && i + 1 < argc && argv[i + 1][0] != '-')
                bins[o->nbinaries++] = argv[++i];
        } else if (strncmp(a, "--binary=", 9) == 0) {
            if (!a[9])
                rc = bad("--binary needs a file", NULL);
            else
                bins[o->nbinaries++] = a + 9;
        } else if (strcmp(a, "--python") == 0) {
            o->python = 1;
            if (i + 1 < argc && argv[i + 1][0] != '-')
                o->interpreter = argv[++i];
        } else if (strncmp(a, "--python=", 9) == 0) {
            o->python = 1;
            o->interpreter = a[9] ? a + 9 : NULL;
        } else if (strcmp(a, "--cc") == 0 || strncmp(a, "--cc=", 5) == 0) {
            const char *v = a[4] == '=' ? a + 5 : (i + 1 < argc ? argv[++i] : NULL);
            int cc = cc_doc_parse_cc(v);
            if (cc < 0)
                rc = bad("--cc needs a compute capability like 9.0", v);
            else if (o->nextra_cc < CC_DOC_MAX_EXTRA_CC)
                o->extra_cc[o->nextra_cc++] = cc;
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
        } else if (strcmp(a, "--no-search") == 0) {
            o->no_search = 1;
        } else if (strcmp(a, "--no-agent") == 0) {
            o->no_agent = 1;
        } else if (strcmp(a, "--cuda-probe") == 0 && argc == 2) {
            rc = cc_doc_cuda_probe(stdout) == 0 ? 0 : 1;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            rc = 0;
        } else {
            rc = bad("unknown option", a);
        }
    }
    char exe[4096], agent[4096], agent_err[1024] = "";
    if (rc < 0 && !o->no_agent) {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n > 0) {
            exe[n] = 0;
            o->cucheck_exe = exe;
        }
        if (cc_cli_locate_agent(agent, sizeof agent, agent_err, sizeof agent_err) == 0)
            o->agent = agent;
        else
            o->agent_error = agent_err;
    }
    if (rc < 0) {
        cc_doctor_collect(r);
        cc_doctor_judge(r);
        if (o->json)
            cc_doctor_print_json(stdout, r);
        else
            cc_doctor_print_text(stdout, r);
        fflush(stdout);
        rc = cc_doctor_failed(r) ? 1 : 0;
    }
    free(bins);
    free(r);
    return rc;
}
