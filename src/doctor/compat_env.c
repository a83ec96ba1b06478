/* Parsing of CUDA_VISIBLE_DEVICES and CUDA_MODULE_LOADING (compat_env.h). */
#include "doctor/compat_env.h"
#include "doctor/compat.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static void set_invalid(cc_doc_visible *v, int pos, const char *tok, size_t len, const char *why)
{
    v->first_invalid = pos;
    if (len >= sizeof v->invalid)
        len = sizeof v->invalid - 1;
    memcpy(v->invalid, tok, len);
    v->invalid[len] = 0;
    snprintf(v->why, sizeof v->why, "%s", why);
}

/* Physical index of the GPU whose UUID starts with tok (len bytes); -1 none, -2 ambiguous. */
static int match_uuid(const char *tok, size_t len, int count, const char *const *uuids)
{
    int found = -1;
    for (int i = 0; uuids && i < count; i++) {
        if (uuids[i] && strlen(uuids[i]) >= len && strncasecmp(uuids[i], tok, len) == 0) {
            if (found >= 0)
                return -2;
            found = i;
        }
    }
    return found;
}

void cc_doc_parse_visible(const char *value, int count, const char *const *uuids,
                          cc_doc_visible *out)
{
    memset(out, 0, sizeof *out);
    out->first_invalid = -1;
    if (!value)
        return;
    out->set = 1;
    const char *p = value;
    for (int pos = 0; *p || pos == 0; pos++) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *tok = p;
        while (len && isspace((unsigned char)*tok)) {
            tok++;
            len--;
        }
        while (len && isspace((unsigned char)tok[len - 1]))
            len--;
        if (len == 0) {
            if (pos > 0 || end)
                set_invalid(out, pos, tok, len, "empty entry");
            return; /* "" hides every GPU */
        }
        int idx = -1;
        if (isdigit((unsigned char)tok[0])) {
            long v = 0;
            size_t i = 0;
            while (i < len && isdigit((unsigned char)tok[i]) && v < 100000)
                v = v * 10 + (tok[i++] - '0');
            if (i != len) {
                set_invalid(out, pos, tok, len, "not a GPU index or UUID");
                return;
            }
            if (count >= 0 && v >= count) {
                set_invalid(out, pos, tok, len, "no such GPU index");
                return;
            }
            idx = (int)v;
        } else if (len > 4 && strncasecmp(tok, "MIG-", 4) == 0) {
            out->has_mig = 1;
            idx = -1;
        } else if (len > 4 && strncasecmp(tok, "GPU-", 4) == 0) {
            if (uuids && count > 0) {
                idx = match_uuid(tok, len, count, uuids);
                if (idx == -2) {
                    set_invalid(out, pos, tok, len, "UUID prefix matches several GPUs");
                    return;
                }
                if (idx < 0) {
                    set_invalid(out, pos, tok, len, "no GPU has this UUID");
                    return;
                }
            }
        } else {
            set_invalid(out, pos, tok, len,
                        tok[0] == '-' ? "negative index (hides this and later entries)"
                                      : "not a GPU index or UUID");
            return;
        }
        for (int j = 0; j < out->count; j++)
            if (idx >= 0 && out->index[j] == idx) {
                set_invalid(out, pos, tok, len, "GPU listed twice");
                return;
            }
        if (out->count < CC_DOC_MAX_VISIBLE)
            out->index[out->count++] = idx;
        if (!end)
            break;
        p = end + 1;
    }
}

cc_doc_module_loading cc_doc_parse_module_loading(const char *value)
{
    if (!value)
        return CC_MODLOAD_UNSET;
    if (strcmp(value, "LAZY") == 0)
        return CC_MODLOAD_LAZY;
    if (strcmp(value, "EAGER") == 0)
        return CC_MODLOAD_EAGER;
    return CC_MODLOAD_INVALID;
}

int cc_doc_lazy_loading(cc_doc_module_loading v, int runtime_cuda)
{
    if (runtime_cuda > 0 && runtime_cuda < CC_DOC_CUDA(11, 7))
        return 0;
    if (v == CC_MODLOAD_LAZY)
        return 1;
    if (v == CC_MODLOAD_EAGER)
        return 0;
    return runtime_cuda == 0 || runtime_cuda >= CC_DOC_CUDA(12, 2);
}

int cc_doc_env_true(const char *value)
{
    return value && strcmp(value, "1") == 0;
}
