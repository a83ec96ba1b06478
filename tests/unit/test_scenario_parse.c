/* The text scenario form as people write it: defaults, numbers, enum names, strings and
 * escapes, comments, dim3 shorthand, the timestamp counter, symbolic handles and addresses,
 * frames and deps; and every kind of syntax error, reported with the right line number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "core/evtio.h"

static cc_evt_reader *open_text(const char *text)
{
    char err[256];
    cc_evt_reader *r = cc_evt_reader_open_mem(text, strlen(text), -1, err, sizeof err);
    CHECK(r != NULL);
    return r;
}

static int next(cc_evt_reader *r, cc_event *ev)
{
    char err[256];
    int rc = cc_evt_read(r, ev, err, sizeof err);
    if (rc < 0) fprintf(stderr, "unexpected error: %s\n", err);
    return rc;
}

static void test_basic(void)
{
    const char *text =
        "# a hand-written scenario\n"
        "\n"
        "   \t\n"
        "launch name=add grid=4 block=256,2 stream=s1 launch_id=1   # trailing comment\r\n"
        "launch t=100 tid=7 name=\"void k<int>(int*)\" grid=0x10,2,3 stream=legacy device=-1\n"
        "launch stream=per_thread\n"
        "stream_create stream=s2 flags=1 priority=-5\n"
        "launch stream=s1 flags=0x3\n"
        "alloc mem_kind=managed address=buf size=1024 callsite=st\n"
        "memcpy direction=h2d src_kind=pageable dst_kind=device dst=buf+512 src=0x1000 size=1024\n"
        "alloc mem_kind=3 address=other size=0x10\n"
        "host_stack id=st frames=\"0x401000@main+0x1c (a.cu:10)|train.py:42 in step\" "
        "frame=\"0xabc@x\\\"y\\\\z\\n\\t\\x01\" frame=\n"
        "graph_node graph_exec=g node=n3 deps=n1,n2,7 type=kernel\n"
        "api_error api=driver code=-3 function=cuMemcpy error_string=\"a \\\"b\\\" c\"\n"
        "process_exit reason=abort code=6\n";
    cc_evt_reader *r = open_text(text);
    cc_event ev;
    if (!r) return;

    CHECK_EQ_U64(next(r, &ev), 1);
    CHECK_EQ_U64(ev.h.kind, CC_EV_LAUNCH);
    CHECK_EQ_U64(ev.h.timestamp, 1); /* counter */
    CHECK_EQ_U64(ev.h.tid, 0);
    CHECK_STR(ev.u.launch.name, "add");
    CHECK_EQ_U64(ev.u.launch.grid[0], 4);
    CHECK_EQ_U64(ev.u.launch.grid[1], 1);
    CHECK_EQ_U64(ev.u.launch.grid[2], 1);
    CHECK_EQ_U64(ev.u.launch.block[0], 256);
    CHECK_EQ_U64(ev.u.launch.block[1], 2);
    CHECK_EQ_U64(ev.u.launch.block[2], 1);
    CHECK_EQ_U64(ev.u.launch.cluster[0], 0); /* omitted: zero */
    CHECK_EQ_U64(ev.u.launch.launch_id, 1);
    uint64_t s1 = ev.u.launch.stream;
    CHECK(s1 != 0 && s1 != 2);
    CHECK_EQ_U64(ev.u.launch.context, 0);

    CHECK_EQ_U64(next(r, &ev), 1);
    CHECK_EQ_U64(ev.h.timestamp, 100);
    CHECK_EQ_U64(ev.h.tid, 7);
    CHECK_STR(ev.u.launch.name, "void k<int>(int*)");
    CHECK_EQ_U64(ev.u.launch.grid[0], 16);
    CHECK_EQ_U64(ev.u.launch.grid[2], 3);
    CHECK_EQ_U64(ev.u.launch.stream, CC_STREAM_LEGACY);
    CHECK_EQ_U64((uint32_t)ev.u.launch.device, (uint32_t)-1);

    CHECK_EQ_U64(next(r, &ev), 1);
    CHECK_EQ_U64(ev.h.timestamp, 101); /* counter continues after an explicit t */
    CHECK_EQ_U64(ev.u.launch.stream, CC_STREAM_PER_THREAD);
    CHECK_STR(ev.u.launch.name, ""); /* omitted string: empty, not NULL */

    CHECK_EQ_U64(next(r, &ev), 1);
    CHECK_EQ_U64(ev.h.kind, CC_EV_STREAM_CREATE);
    uint64_t s2 = ev.u.stream.stream;
    CHECK(s2 != 0 && s2 != 2 && s2 != s1);
    CHECK_EQ_U64(ev.u.stream.flags, 1);
    CHECK_EQ_U64((uint32_t)ev.u.stream.priority, (uint32_t)-5);

    CHECK_EQ_U64(next(r, &ev), 1);
    CHECK_EQ_U64(ev.u.launch.stream, s1); /* same name, same id */
    CHECK_EQ_U64(ev.u.launch.flags, 3);

    CHECK_EQ_U64(next(r, &ev), 1);
    CHECK_EQ_U64(ev.h.kind, CC_EV_ALLOC);
    CHECK_EQ_U64(ev.u.alloc.mem_kind, CC_MEM_MANAGED);
    uint64_t buf = ev.u.alloc.address;
    CHECK(buf != 0);
    CHECK_EQ_U64(ev.u.alloc.size, 1024);
    uint64_t st = ev.u.alloc.callsite;
    CHECK(st != 0);

    CHECK_EQ_U64(next(r, &ev), 1);
    CHECK_EQ_U64(ev.u.memcpy.direction, CC_COPY_H2D);
    CHECK_EQ_U64(ev.u.memcpy.src_kind, CC_MEM_HOST_PAGEABLE);
    CHECK_EQ_U64(ev.u.memcpy.dst_kind, CC_MEM_DEVICE);
    CHECK_EQ_U64(ev.u.memcpy.dst, buf + 512);
    CHECK_EQ_U64(ev.u.memcpy.src, 0x1000);

    CHECK_EQ_U64(next(r, &ev), 1);
    CHECK_EQ_U64(ev.u.alloc.mem_kind, 3);
    CHECK(ev.u.alloc.address != buf);
    CHECK(ev.u.alloc.address >= buf + 0x100000000ull || ev.u.alloc.address + 0x100000000ull <= buf);

    CHECK_EQ_U64(next(r, &ev), 1);
    CHECK_EQ_U64(ev.h.kind, CC_EV_HOST_STACK);
    CHECK_EQ_U64(ev.u.host_stack.id, st); /* callsite names and stack ids share names */
    CHECK_EQ_U64(ev.u.host_stack.nframes, 4);
    if (ev.u.host_stack.nframes == 4) {
        CHECK_EQ_U64(ev.u.host_stack.frames[0].pc, 0x401000);
        CHECK_STR(ev.u.host_stack.frames[0].text, "main+0x1c (a.cu:10)");
        CHECK_EQ_U64(ev.u.host_stack.frames[1].pc, 0);
        CHECK_STR(ev.u.host_stack.frames[1].text, "train.py:42 in step");
        CHECK_EQ_U64(ev.u.host_stack.frames[2].pc, 0xabc);
        CHECK_STR(ev.u.host_stack.frames[2].text, "x\"y\\z\n\t\x01");
        CHECK_STR(ev.u.host_stack.frames[3].text, "");
    }

    CHECK_EQ_U64(next(r, &ev), 1);
    CHECK_EQ_U64(ev.h.kind, CC_EV_GRAPH_NODE);
    CHECK_EQ_U64(ev.u.graph_node.type, CC_GNODE_KERNEL);
    CHECK_EQ_U64(ev.u.graph_node.ndeps, 3);
    uint64_t g = ev.u.graph_node.graph_exec, n3 = ev.u.graph_node.node;
    if (ev.u.graph_node.ndeps == 3) {
        uint64_t n1 = ev.u.graph_node.deps[0], n2 = ev.u.graph_node.deps[1];
        CHECK(n1 && n2 && n1 != n2 && n1 != n3 && n2 != n3 && g != n1 && g != n3);
        CHECK_EQ_U64(ev.u.graph_node.deps[2], 7);
    }

    CHECK_EQ_U64(next(r, &ev), 1);
    CHECK_EQ_U64(ev.u.api_error.api, CC_API_DRIVER);
    CHECK_EQ_U64((uint32_t)ev.u.api_error.code, (uint32_t)-3);
    CHECK_STR(ev.u.api_error.function, "cuMemcpy");
    CHECK_STR(ev.u.api_error.error_string, "a \"b\" c");
    CHECK_STR(ev.u.api_error.error_name, "");

    CHECK_EQ_U64(next(r, &ev), 1);
    CHECK_EQ_U64(ev.u.process_exit.reason, CC_EXIT_ABORT);
    CHECK_EQ_U64(ev.u.process_exit.code, 6);
    CHECK_EQ_U64(next(r, &ev), 0);
    CHECK_EQ_U64(next(r, &ev), 0);
    cc_evt_reader_close(r);

    /* Interning is per reader and stable: a second reader gives the same ids. */
    r = open_text("launch stream=s1\nlaunch stream=zz\nlaunch stream=s1\n");
    if (r) {
        CHECK_EQ_U64(next(r, &ev), 1);
        CHECK_EQ_U64(ev.u.launch.stream, s1);
        CHECK_EQ_U64(next(r, &ev), 1);
        CHECK_EQ_U64(ev.u.launch.stream, s2);
        CHECK_EQ_U64(next(r, &ev), 1);
        CHECK_EQ_U64(ev.u.launch.stream, s1);
        cc_evt_reader_close(r);
    }
    /* No final newline, last line still read. */
    r = open_text("device_sync device=2");
    if (r) {
        CHECK_EQ_U64(next(r, &ev), 1);
        CHECK_EQ_U64(ev.u.sync.device, 2);
        CHECK_EQ_U64(next(r, &ev), 0);
        cc_evt_reader_close(r);
    }
}

typedef struct {
    const char *text;
    const char *error; /* expected message, exactly */
} bad_case;

static const bad_case bad_cases[] = {
    { "launch\nlanch name=x\n", "line 2: unknown event kind 'lanch'" },
    { "# c\n\nalloc sizee=4\n", "line 3: unknown key 'sizee' for alloc" },
    { "alloc size=12x\n", "line 1: bad value '12x' for key 'size' (expected a number)" },
    { "alloc size=\n", "line 1: bad value '' for key 'size' (expected a number)" },
    { "alloc size=0x\n", "line 1: bad value '0x' for key 'size' (expected a number)" },
    { "alloc size=18446744073709551616\n",
      "line 1: bad value '18446744073709551616' for key 'size' (expected a number)" },
    { "alloc size=18446744073709551615 size=1\n", "line 1: duplicate key 'size'" },
    { "launch dynamic_smem=4294967296\n",
      "line 1: bad value '4294967296' for key 'dynamic_smem' (expected a number from 0 to "
      "4294967295)" },
    { "launch device=2147483648\n",
      "line 1: bad value '2147483648' for key 'device' (expected a number from -2147483648 to "
      "2147483647)" },
    { "launch grid=1,2,3,4\n",
      "line 1: bad value '1,2,3,4' for key 'grid' (expected 1 to 3 comma-separated numbers, "
      "like 256 or 4,2,1)" },
    { "launch grid=1,,3\n",
      "line 1: bad value '1,,3' for key 'grid' (expected 1 to 3 comma-separated numbers, like "
      "256 or 4,2,1)" },
    { "launch stream=1s\n", "line 1: bad value '1s' for key 'stream' (expected a number or a "
      "name like s1)" },
    { "alloc mem_kind=gpu\n",
      "line 1: bad value 'gpu' for key 'mem_kind' (expected unknown, device, async, managed, "
      "pinned, mapped, va_reserve, va_map, pageable, array, module_global)" },
    { "launch name=\"abc\n", "line 1: unterminated string" },
    { "launch name=\"a\\qb\"\n", "line 1: unknown escape '\\q' in string" },
    { "launch name=\"a\\x0\"\n", "line 1: bad \\x escape in string (need two hex digits, not 00)" },
    { "launch name=\"a\\x00\"\n", "line 1: bad \\x escape in string (need two hex digits, not 00)" },
    { "launch name=\"a\"b\n", "line 1: unexpected character after the closing quote of 'name'" },
    { "launch name=a\"b\n", "line 1: stray '\"' in the value of 'name' (quote the whole value)" },
    { "launch name\n", "line 1: expected key=value, got 'name'" },
    { "launch =5\n", "line 1: missing key before '='" },
    { "launch t=-1\n", "line 1: bad value '-1' for key 't' (expected a number)" },
    { "memcpy dst=buf+x\n", "line 1: bad value 'buf+x' for key 'dst' (expected an address: "
      "NUMBER, NAME or NAME+OFFSET below 4 GiB)" },
    { "memcpy dst=buf+0x100000000\n", "line 1: bad value 'buf+0x100000000' for key 'dst' "
      "(expected an address: NUMBER, NAME or NAME+OFFSET below 4 GiB)" },
    { "graph_node deps=1,,2\n", "line 1: bad value '' for key 'deps' (expected a number or a "
      "name like s1)" },
    { "launch frame=x\n", "line 1: unknown key 'frame' for launch" },
    { "host_stack frames=a frames=b\n", "line 1: duplicate key 'frames'" },
    { "launch tid=-1\n", "line 1: bad value '-1' for key 'tid' (expected a number from 0 to "
      "4294967295)" },
};

static void test_errors(void)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        char err[512] = "";
        cc_evt_reader *r =
            cc_evt_reader_open_mem(bad_cases[i].text, strlen(bad_cases[i].text), 1, err,
                                   sizeof err);
        cc_event ev;
        int rc = -2;
        while (r && (rc = cc_evt_read(r, &ev, err, sizeof err)) == 1) {
        }
        CHECK_EQ_U64(rc, (uint64_t)-1);
        CHECK_STR(err, bad_cases[i].error);
        cc_evt_reader_close(r);
    }
    /* An embedded NUL byte. */
    char err[256];
    cc_evt_reader *r = cc_evt_reader_open_mem("launch\nlaunch\0x\n", 15, 1, err, sizeof err);
    cc_event ev;
    CHECK_EQ_U64(cc_evt_read(r, &ev, err, sizeof err), 1);
    CHECK_EQ_U64(cc_evt_read(r, &ev, err, sizeof err), (uint64_t)-1);
    CHECK_STR(err, "line 2: NUL byte in line");
    cc_evt_reader_close(r);
}

int main(void)
{
    test_basic();
    test_errors();
    TEST_MAIN_END();
}
