/* .cuevt compatibility for fields appended to an existing kind: a launch record written before
 * launch.grid_id existed (payload 8 bytes shorter) still reads, with grid_id 0 and every other
 * field intact; a record cut inside the appended field is still an error; the new
 * device_fault kind round-trips through the binary form. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "core/evtio.h"

static size_t with_header(unsigned char *buf, const unsigned char *rec, size_t n)
{
    memset(buf, 0, 48);
    memcpy(buf, "CUEVT\0\r\n", 8);
    buf[8] = 1;  /* version */
    buf[12] = 48; /* header size */
    memcpy(buf + 48, rec, n);
    return 48 + n;
}

static int read_one(const unsigned char *file, size_t n, cc_event *ev, char *err, size_t errlen)
{
    cc_evt_reader *r = cc_evt_reader_open_mem(file, n, 0, err, errlen);
    if (!r) return -2;
    int got = cc_evt_read(r, ev, err, errlen);
    if (got == 1) { /* keep the numeric fields only: strings die with the reader */
        ev->u.launch.name = NULL;
    }
    cc_evt_reader_close(r);
    return got;
}

int main(void)
{
    cc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.h.kind = CC_EV_LAUNCH;
    ev.u.launch.name = "k";
    ev.u.launch.grid[0] = 7;
    ev.u.launch.launch_id = 5;
    ev.u.launch.graph_node = 99;
    ev.u.launch.grid_id = 0x1122334455ull;
    unsigned char rec[512], file[600];
    size_t n = cc_evt_encode(&ev, rec, sizeof rec);
    CHECK(n > 16);
    char err[256];
    cc_event out;
    CHECK(read_one(file, with_header(file, rec, n), &out, err, sizeof err) == 1);
    CHECK_EQ_U64(out.u.launch.grid_id, 0x1122334455ull);

    /* an older writer: no grid_id at the end */
    uint32_t len = (uint32_t)(rec[4] | rec[5] << 8 | rec[6] << 16 | (uint32_t)rec[7] << 24) - 8;
    rec[4] = (unsigned char)len; rec[5] = (unsigned char)(len >> 8);
    rec[6] = (unsigned char)(len >> 16); rec[7] = (unsigned char)(len >> 24);
    CHECK(read_one(file, with_header(file, rec, n - 8), &out, err, sizeof err) == 1);
    CHECK_EQ_U64(out.u.launch.grid_id, 0);
    CHECK_EQ_U64(out.u.launch.graph_node, 99);
    CHECK_EQ_U64(out.u.launch.launch_id, 5);
    CHECK_EQ_U64(out.u.launch.grid[0], 7);

    /* cut inside the appended field: an error */
    len += 4;
    rec[4] = (unsigned char)len; rec[5] = (unsigned char)(len >> 8);
    CHECK(read_one(file, with_header(file, rec, n - 4), &out, err, sizeof err) == -1);

    /* device_fault round trip */
    memset(&ev, 0, sizeof ev);
    ev.h.kind = CC_EV_DEVICE_FAULT;
    ev.u.device_fault.grid_id = 42;
    ev.u.device_fault.exception = 14;
    ev.u.device_fault.line = 21;
    ev.u.device_fault.thread[0] = 77;
    ev.u.device_fault.kernel = "_Z3oobPi";
    n = cc_evt_encode(&ev, rec, sizeof rec);
    CHECK(n > 0);
    cc_evt_reader *r = cc_evt_reader_open_mem(file, with_header(file, rec, n), 0, err, sizeof err);
    CHECK(r != NULL);
    if (r) {
        CHECK(cc_evt_read(r, &out, err, sizeof err) == 1);
        CHECK_EQ_U64(out.h.kind, CC_EV_DEVICE_FAULT);
        CHECK_EQ_U64(out.u.device_fault.grid_id, 42);
        CHECK_EQ_U64(out.u.device_fault.line, 21);
        CHECK_EQ_U64(out.u.device_fault.thread[0], 77);
        CHECK_STR(out.u.device_fault.kernel, "_Z3oobPi");
        CHECK_STR(out.u.device_fault.file, "");
        cc_evt_reader_close(r);
    }
    TEST_MAIN_END();
}
