/* memcheck's repeated-launch digest and the shape counter that keeps it (mc_repeat.h). */
#include <string.h>
#include "agent/tools/memcheck/mc_repeat.h"
#include "agent/instr/instr_internal.h"
#include "agent/tools/launch_args.h"
#include "core/hash.h"

#define CC_MC_DIGEST_SHIFT 25

uint64_t cc_mc_launch_digest(const Sanitizer_LaunchData *d)
{
    static unsigned char buf[CC_LAUNCH_PARAM_MAX];
    void **params, **extra;
    if (!cc_launch_args_current(&params, &extra)) {
        return 0; /* a graph node, or a launch call whose arguments are not read */
    }
    cc_launch_args_consume();
    /* No layout for an args array: no parameters (the driver answered so) or no answer.
     * Unknown either way (lay_out returns NULL), and the launch is checked. */
    const cc_launch_layout *k =
        extra == NULL ? cc_launch_layout_from_driver(d->function, "memcheck") : NULL;
    size_t len = 0;
    const unsigned char *args = cc_launch_args_lay_out(k, params, extra, buf, sizeof buf, &len);
    if (args == NULL && (params != NULL || extra != NULL)) {
        return 0;
    }
    uint64_t h = cc_hash_pair(d->clusterDim_x | (uint64_t)d->clusterDim_y << 32,
                              d->clusterDim_z | (uint64_t)len << 32);
    if (args != NULL && len > 0) {
        /* A pointer-sized word inside a live allocation counts by where it points in it, the
         * allocation's size and its base's low bits (alignment); any other word by its value
         * (a freed block's address, a null pointer, a scalar). So the same tensors in another
         * step's blocks of the same sizes make a repeat, and a block freed and allocated again
         * at the same address with other bounds does not. */
        size_t off = 0;
        for (; off + 8 <= len; off += 8) {
            uint64_t w;
            memcpy(&w, args + off, 8);
            const cc_range *r = cc_instr_table_find(w);
            if (r != NULL) {
                h = cc_hash_combine(h, cc_hash_pair(w - r->base, r->end - r->base));
                h = cc_hash_combine(h, r->base & 0xffu);
            } else {
                h = cc_hash_combine(h, cc_hash_u64(w));
            }
        }
        h = cc_hash_more(h, args + off, len - off);
    }
    h >>= CC_MC_DIGEST_SHIFT;
    return h != 0 ? h : 1;
}

uint64_t cc_mc_shape_checked(uint64_t v, uint64_t digest)
{
    uint64_t count = cc_mc_shape_count(v);
    if (count < CC_MC_SHAPE_COUNT_MASK) {
        count++;
    }
    uint64_t keep = v & ~CC_MC_SHAPE_COUNT_MASK;
    if (!(v & CC_MC_SHAPE_DIGEST_SET) && cc_mc_shape_count(v) == 0 && digest != 0) {
        keep = CC_MC_SHAPE_DIGEST_SET | digest << CC_MC_DIGEST_SHIFT;
    }
    return keep | count;
}

uint64_t cc_mc_shape_unchecked(uint64_t v)
{
    if (cc_mc_shape_count(v) == 1) {
        return v & CC_MC_SHAPE_COUNT_MASK;
    }
    return v;
}

int cc_mc_shape_repeats(uint64_t v, uint64_t digest)
{
    return digest != 0 && (v & CC_MC_SHAPE_DIGEST_SET) && v >> CC_MC_DIGEST_SHIFT == digest;
}
