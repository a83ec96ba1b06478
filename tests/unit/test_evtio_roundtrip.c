/* Round trips of every event kind through the binary .cuevt form (encoder, writer, file and
 * memory readers, concurrent writers) and through the text scenario form, compared field by
 * field; plus the name tables of event.h. */
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "core/evtio.h"
#include "test_evtio_samples.h"

static char tmp_path[512];

static void make_tmp_path(const char *name)
{
    snprintf(tmp_path, sizeof tmp_path, "%s/test_evtio_%d_%s", CC_TEST_BINARY_DIR, (int)getpid(),
             name);
}

static void test_names(void)
{
    for (uint32_t k = 1; k < CC_EV_KIND_COUNT; k++) {
        const char *n = cc_event_kind_name(k);
        CHECK(n != NULL);
        if (n) CHECK_EQ_U64(cc_event_kind_from_name(n), k);
    }
    CHECK(cc_event_kind_name(CC_EV_KIND_COUNT) == NULL);
    CHECK(cc_event_kind_name(0) == NULL);
    CHECK(cc_event_kind_from_name("lanch") == -1);
    CHECK(cc_event_kind_from_name(NULL) == -1);
    CHECK_STR(cc_event_kind_name(CC_EV_LAUNCH), "launch");
    for (uint32_t k = 0; k < CC_MEM_KIND_COUNT; k++) {
        const char *n = cc_mem_kind_name(k);
        CHECK(n != NULL);
        if (n) CHECK_EQ_U64(cc_mem_kind_from_name(n), k);
    }
    CHECK(cc_mem_kind_name(CC_MEM_KIND_COUNT) == NULL);
    CHECK_STR(cc_mem_kind_name(CC_MEM_HOST_PINNED), "pinned");
    CHECK_EQ_U64(cc_copy_dir_from_name("d2h"), CC_COPY_D2H);
    CHECK_STR(cc_copy_dir_name(CC_COPY_PEER), "peer");
    CHECK(cc_copy_dir_name(7) == NULL);
    CHECK_EQ_U64(cc_graph_node_type_from_name("kernel"), CC_GNODE_KERNEL);
    CHECK_STR(cc_graph_node_type_name(CC_GNODE_CHILD_GRAPH), "child_graph");
    CHECK(cc_graph_node_type_name(11) == NULL);
    CHECK(cc_graph_node_type_from_name("nope") == -1);
}

/* Read all events of r and compare them with want[0..n). */
static void expect_events_more(cc_evt_reader *r, const cc_event *want, size_t n,
                               const char *what, int more)
{
    char err[512], why[512];
    cc_event ev;
    for (size_t i = 0; i < n; i++) {
        int rc = cc_evt_read(r, &ev, err, sizeof err);
        CHECK_EQ_U64(rc, 1);
        if (rc != 1) {
            fprintf(stderr, "%s: event %zu: %s\n", what, i, rc < 0 ? err : "early end");
            return;
        }
        if (!events_equal(&want[i], &ev, why, sizeof why)) {
            fprintf(stderr, "%s: event %zu (%s): %s\n", what, i,
                    cc_event_kind_name(want[i].h.kind), why);
            CHECK(0);
        }
    }
    if (!more) CHECK_EQ_U64(cc_evt_read(r, &ev, err, sizeof err), 0);
}

static void expect_events(cc_evt_reader *r, const cc_event *want, size_t n, const char *what)
{
    expect_events_more(r, want, n, what, 0);
}

static void test_encode_memory(const cc_event *ev, size_t n)
{
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    /* A file header like the writer's: magic, version 1, header size 48. */
    memset(buf, 0, 48);
    memcpy(buf, "CUEVT\0\r\n", 8);
    buf[8] = 1;
    buf[12] = 48;
    len = 48;
    for (size_t i = 0; i < n; i++) {
        size_t k = cc_evt_encode(&ev[i], buf + len, cap - len);
        CHECK(k > 8);
        CHECK_EQ_U64(cc_evt_encode(&ev[i], buf + len, k - 1), 0); /* one byte short */
        len += k;
    }
    char err[256];
    cc_evt_reader *r = cc_evt_reader_open_mem(buf, len, -1, err, sizeof err);
    CHECK(r != NULL);
    if (r) expect_events(r, ev, n, "memory");
    cc_evt_reader_close(r);
    r = cc_evt_reader_open_mem(buf, len, 0, err, sizeof err);
    if (r) expect_events(r, ev, n, "memory, forced binary");
    cc_evt_reader_close(r);

    cc_event none;
    memset(&none, 0, sizeof none);
    CHECK_EQ_U64(cc_evt_encode(&none, buf, cap), 0);
    none.h.kind = CC_EV_KIND_COUNT;
    CHECK_EQ_U64(cc_evt_encode(&none, buf, cap), 0);
    free(buf);
}

static void test_writer_file(const cc_event *ev, size_t n)
{
    char err[256];
    make_tmp_path("w.cuevt");
    cc_evt_writer *w = cc_evt_writer_open(tmp_path, err, sizeof err);
    CHECK(w != NULL);
    if (!w) return;
    for (size_t i = 0; i < n; i++) CHECK_EQ_U64(cc_evt_write(w, &ev[i]), 0);
    CHECK_EQ_U64(cc_evt_writer_flush(w), 0);
    for (size_t i = 0; i < n; i++) CHECK_EQ_U64(cc_evt_write(w, &ev[i]), 0);
    CHECK_EQ_U64(cc_evt_writer_close(w), 0);
    cc_evt_reader *r = cc_evt_reader_open(tmp_path, err, sizeof err);
    CHECK(r != NULL);
    if (r) {
        expect_events_more(r, ev, n, "file, first half", 1);
        cc_evt_reader_close(r);
    }
    /* Again, both halves. */
    r = cc_evt_reader_open(tmp_path, err, sizeof err);
    if (r) {
        cc_event e2;
        for (size_t i = 0; i < n; i++) CHECK_EQ_U64(cc_evt_read(r, &e2, err, sizeof err), 1);
        expect_events(r, ev, n, "file, second half");
        cc_evt_reader_close(r);
    }
    unlink(tmp_path);
    CHECK(cc_evt_writer_open("/nonexistent-dir/x.cuevt", err, sizeof err) == NULL);
    CHECK(strstr(err, "/nonexistent-dir/x.cuevt") != NULL);
    CHECK(cc_evt_reader_open("/nonexistent-dir/x.cuevt", err, sizeof err) == NULL);
}

/* Events larger than the writer's buffer, and strings over the 1 MiB cap (truncated). */
static void test_large(void)
{
    size_t big = (1u << 20) + 100;
    char *name = malloc(big + 1);
    for (size_t i = 0; i < big; i++) name[i] = (char)('a' + i % 26);
    name[big] = '\0';
    cc_event ev[2];
    memset(ev, 0, sizeof ev);
    ev[0].h.kind = CC_EV_FUNCTION;
    ev[0].u.function.name = name;
    ev[0].u.function.function = 77;
    ev[1].h.kind = CC_EV_LAUNCH;
    ev[1].u.launch.name = "small";
    char err[256];
    make_tmp_path("big.cuevt");
    cc_evt_writer *w = cc_evt_writer_open(tmp_path, err, sizeof err);
    CHECK(w != NULL);
    if (!w) return;
    CHECK_EQ_U64(cc_evt_write(w, &ev[1]), 0);
    CHECK_EQ_U64(cc_evt_write(w, &ev[0]), 0);
    CHECK_EQ_U64(cc_evt_write(w, &ev[1]), 0);
    CHECK_EQ_U64(cc_evt_writer_close(w), 0);
    cc_evt_reader *r = cc_evt_reader_open(tmp_path, err, sizeof err);
    CHECK(r != NULL);
    cc_event got;
    if (r) {
        CHECK_EQ_U64(cc_evt_read(r, &got, err, sizeof err), 1);
        CHECK_STR(got.u.launch.name, "small");
        CHECK_EQ_U64(cc_evt_read(r, &got, err, sizeof err), 1);
        CHECK_EQ_U64(got.u.function.function, 77);
        CHECK_EQ_U64(strlen(got.u.function.name), 1u << 20);
        CHECK(strncmp(got.u.function.name, name, 1u << 20) == 0);
        CHECK_EQ_U64(cc_evt_read(r, &got, err, sizeof err), 1);
        CHECK_STR(got.u.launch.name, "small");
        CHECK_EQ_U64(cc_evt_read(r, &got, err, sizeof err), 0);
        cc_evt_reader_close(r);
    }
    unlink(tmp_path);
    free(name);
}

typedef struct {
    cc_evt_writer *w;
    uint32_t tid;
} thread_arg;

#define PER_THREAD 5000
static void *writer_thread(void *p)
{
    thread_arg *a = p;
    cc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.h.kind = CC_EV_LAUNCH;
    ev.h.tid = a->tid;
    ev.u.launch.name = "kernel_with_a_longish_name_to_fill_buffers";
    for (uint64_t i = 1; i <= PER_THREAD; i++) {
        ev.u.launch.launch_id = i;
        if (cc_evt_write(a->w, &ev) != 0) return (void *)1;
        if (i % 1000 == 0) cc_evt_writer_flush(a->w);
    }
    return NULL;
}

static void test_threads(void)
{
    char err[256];
    make_tmp_path("threads.cuevt");
    cc_evt_writer *w = cc_evt_writer_open(tmp_path, err, sizeof err);
    CHECK(w != NULL);
    if (!w) return;
    pthread_t t[4];
    thread_arg args[4];
    for (int i = 0; i < 4; i++) {
        args[i] = (thread_arg){ w, (uint32_t)(i + 1) };
        pthread_create(&t[i], NULL, writer_thread, &args[i]);
    }
    for (int i = 0; i < 4; i++) {
        void *rc;
        pthread_join(t[i], &rc);
        CHECK(rc == NULL);
    }
    CHECK_EQ_U64(cc_evt_writer_close(w), 0);
    uint64_t next[5] = { 0, 1, 1, 1, 1 };
    cc_evt_reader *r = cc_evt_reader_open(tmp_path, err, sizeof err);
    CHECK(r != NULL);
    cc_event ev;
    int rc;
    size_t count = 0;
    while (r && (rc = cc_evt_read(r, &ev, err, sizeof err)) == 1) {
        count++;
        CHECK(ev.h.tid >= 1 && ev.h.tid <= 4);
        if (ev.h.tid >= 1 && ev.h.tid <= 4) {
            CHECK_EQ_U64(ev.u.launch.launch_id, next[ev.h.tid]); /* per-thread order kept */
            next[ev.h.tid] = ev.u.launch.launch_id + 1;
        }
        CHECK_STR(ev.u.launch.name, "kernel_with_a_longish_name_to_fill_buffers");
    }
    CHECK_EQ_U64(count, 4 * PER_THREAD);
    cc_evt_reader_close(r);
    unlink(tmp_path);
}

/* Flushing from a signal handler (the agent's crash path) puts the buffered records on disk
 * while the writer stays open. */
static cc_evt_writer *signal_writer;
static volatile sig_atomic_t signal_flush_rc = 99;
static void on_signal(int sig)
{
    (void)sig;
    signal_flush_rc = cc_evt_writer_flush(signal_writer);
}

static void test_signal_flush(const cc_event *ev, size_t n)
{
    char err[256];
    make_tmp_path("sig.cuevt");
    signal_writer = cc_evt_writer_open(tmp_path, err, sizeof err);
    CHECK(signal_writer != NULL);
    if (!signal_writer) return;
    for (size_t i = 0; i < n; i++) cc_evt_write(signal_writer, &ev[i]);
    struct stat st;
    CHECK(stat(tmp_path, &st) == 0 && st.st_size == 48); /* header only: records buffered */
    signal(SIGUSR1, on_signal);
    raise(SIGUSR1);
    signal(SIGUSR1, SIG_DFL);
    CHECK_EQ_U64(signal_flush_rc, 0);
    cc_evt_reader *r = cc_evt_reader_open(tmp_path, err, sizeof err); /* writer still open */
    CHECK(r != NULL);
    if (r) expect_events(r, ev, n, "after signal flush");
    cc_evt_reader_close(r);
    CHECK_EQ_U64(cc_evt_writer_close(signal_writer), 0);
    unlink(tmp_path);
}

/* Text form: write every event, read them back, and check the text is a fixpoint. */
static void test_text(const cc_event *ev, size_t n)
{
    char *text = NULL, *text2 = NULL, err[256];
    size_t len = 0, len2 = 0;
    FILE *f = open_memstream(&text, &len);
    fputs("# scenario written by test_evtio_roundtrip\n\n", f);
    for (size_t i = 0; i < n; i++) cc_scenario_write_event(f, &ev[i]);
    fclose(f);
    cc_evt_reader *r = cc_evt_reader_open_mem(text, len, -1, err, sizeof err);
    CHECK(r != NULL);
    if (r) expect_events(r, ev, n, "text");
    cc_evt_reader_close(r);

    r = cc_evt_reader_open_mem(text, len, 1, err, sizeof err);
    f = open_memstream(&text2, &len2);
    fputs("# scenario written by test_evtio_roundtrip\n\n", f);
    cc_event e;
    while (r && cc_evt_read(r, &e, err, sizeof err) == 1) cc_scenario_write_event(f, &e);
    fclose(f);
    cc_evt_reader_close(r);
    CHECK(len == len2 && memcmp(text, text2, len) == 0);
    if (getenv("CC_TEST_VERBOSE")) fputs(text, stderr);

    /* And from a file. */
    make_tmp_path("t.scn");
    f = fopen(tmp_path, "w");
    fwrite(text, 1, len, f);
    fclose(f);
    r = cc_evt_reader_open(tmp_path, err, sizeof err);
    CHECK(r != NULL);
    if (r) expect_events(r, ev, n, "text file");
    cc_evt_reader_close(r);
    unlink(tmp_path);
    free(text);
    free(text2);
}

/* The NCCL collective kind by hand: its op names, a scenario line as a test writes one (symbolic
 * buffers and streams), the same event through the binary form, and the line `dump` prints. */
static void test_collective(void)
{
    CHECK_STR(cc_coll_op_name(CC_COLL_ALLREDUCE), "allreduce");
    CHECK_STR(cc_coll_op_name(CC_COLL_REDUCESCATTER), "reducescatter");
    CHECK_EQ_U64(cc_coll_op_from_name("recv"), CC_COLL_RECV);
    CHECK_EQ_U64(cc_coll_op_from_name("bcast"), CC_COLL_BCAST);
    CHECK(cc_coll_op_name(CC_COLL_OP_COUNT) == NULL);
    CHECK(cc_coll_op_from_name("alltoall") == -1);
    CHECK_STR(cc_event_kind_name(CC_EV_COLLECTIVE), "collective");

    static const char line[] =
        "collective tid=7 op=reduce stream=nccl peer=0 rank=1 nranks=2 datatype=7 elem_size=4 "
        "count=1024 comm=c1 sendbuff=buf recvbuff=buf+4096 send_bytes=4096 recv_bytes=0 "
        "callsite=st flags=0x1\n";
    char err[256], why[256];
    cc_evt_reader *r = cc_evt_reader_open_mem(line, sizeof line - 1, 1, err, sizeof err);
    CHECK(r != NULL);
    cc_event e;
    memset(&e, 0, sizeof e);
    int rc = r ? cc_evt_read(r, &e, err, sizeof err) : -1;
    CHECK_EQ_U64(rc, 1);
    if (rc != 1) {
        fprintf(stderr, "  collective line: %s\n", err);
        cc_evt_reader_close(r);
        return;
    }
    const cc_ev_collective *c = &e.u.collective;
    CHECK_EQ_U64(e.h.kind, CC_EV_COLLECTIVE);
    CHECK_EQ_U64(e.h.tid, 7);
    CHECK_EQ_U64(c->op, CC_COLL_REDUCE);
    CHECK_EQ_U64(c->stream, 0x10001); /* first symbolic handle */
    CHECK_EQ_U64(c->comm, 0x10002);
    CHECK_EQ_U64(c->callsite, 0x10003);
    CHECK_EQ_U64(c->sendbuff, 0x7f0000000000ull + (1ull << 32)); /* first symbolic address */
    CHECK_EQ_U64(c->recvbuff, c->sendbuff + 4096);
    CHECK_EQ_U64(c->send_bytes, 4096);
    CHECK_EQ_U64(c->recv_bytes, 0);
    CHECK(c->peer == 0 && c->rank == 1 && c->nranks == 2);
    CHECK_EQ_U64(c->datatype, 7);
    CHECK_EQ_U64(c->elem_size, 4);
    CHECK_EQ_U64(c->count, 1024);
    CHECK_EQ_U64(c->flags, CC_COLL_FLAG_GROUPED);

    unsigned char buf[512];
    size_t len = cc_evt_encode(&e, buf, sizeof buf);
    CHECK(len > 8);
    CHECK_EQ_U64(buf[0] | (buf[1] << 8), CC_EV_COLLECTIVE); /* the record's kind, 52 */
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = open_memstream(&text, &tlen);
    cc_scenario_write_event(f, &e);
    fclose(f);
    CHECK(strstr(text, "collective t=") == text);
    CHECK(strstr(text, " op=reduce ") != NULL);
    CHECK(strstr(text, " send_bytes=4096") != NULL);
    CHECK(strstr(text, "recv_bytes") == NULL); /* zero fields are left out */
    cc_evt_reader *r2 = cc_evt_reader_open_mem(text, tlen, 1, err, sizeof err);
    cc_event back;
    CHECK(r2 != NULL && cc_evt_read(r2, &back, err, sizeof err) == 1);
    if (r2) CHECK(events_equal(&e, &back, why, sizeof why));
    cc_evt_reader_close(r2);
    cc_evt_reader_close(r);
    free(text);
}

/* Binary file -> text (what `cucheck dump` does) -> events: the same events. */
static void test_binary_to_text(const cc_event *ev, size_t n)
{
    char err[256];
    make_tmp_path("b2t.cuevt");
    cc_evt_writer *w = cc_evt_writer_open(tmp_path, err, sizeof err);
    if (!w) {
        CHECK(0);
        return;
    }
    for (size_t i = 0; i < n; i++) cc_evt_write(w, &ev[i]);
    cc_evt_writer_close(w);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cc_evt_reader *r = cc_evt_reader_open(tmp_path, err, sizeof err);
    cc_event e;
    while (r && cc_evt_read(r, &e, err, sizeof err) == 1) cc_scenario_write_event(f, &e);
    cc_evt_reader_close(r);
    fclose(f);
    r = cc_evt_reader_open_mem(text, len, -1, err, sizeof err);
    if (r) expect_events(r, ev, n, "binary to text");
    cc_evt_reader_close(r);
    free(text);
    unlink(tmp_path);
}

int main(void)
{
    cc_event ev[CC_EV_KIND_COUNT];
    size_t n = sample_events(ev);
    CHECK_EQ_U64(n, CC_EV_KIND_COUNT - 1);
    test_names();
    test_encode_memory(ev, n);
    test_writer_file(ev, n);
    test_large();
    test_threads();
    test_signal_flush(ev, n);
    test_text(ev, n);
    test_binary_to_text(ev, n);
    test_collective();
    TEST_MAIN_END();
}
