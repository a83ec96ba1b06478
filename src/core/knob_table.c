/* The table of the agent's environment knobs (core/agent_knobs.inc) as data, and the report
 * notes that name the knobs in effect which change what is checked (knob_table.h). */
#include "core/knob_table.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/track_spec.h"

#define CC_CHECKS(tool, value) 1, tool, value
#define CC_CHECKS_SAME 0, NULL, NULL
static const cc_knob_info cc_knob_table[] = {
#define CC_KNOB(id, var, kind, values, meaning, checks)                                            \
    {var, CC_KNOB_KIND_##kind, values, meaning, checks},
#include "core/agent_knobs.inc"
#undef CC_KNOB
};
#undef CC_CHECKS
#undef CC_CHECKS_SAME

#define CC_KNOB_TABLE_SIZE (sizeof cc_knob_table / sizeof cc_knob_table[0])

size_t cc_knob_info_count(void)
{
    return CC_KNOB_TABLE_SIZE;
}

const cc_knob_info *cc_knob_info_at(size_t i)
{
    return i < CC_KNOB_TABLE_SIZE ? &cc_knob_table[i] : NULL;
}

const cc_knob_info *cc_knob_info_find(const char *name)
{
    for (size_t i = 0; name != NULL && i < CC_KNOB_TABLE_SIZE; i++) {
        if (strcmp(cc_knob_table[i].name, name) == 0) {
            return &cc_knob_table[i];
        }
    }
    return NULL;
}

const char *cc_knob_kind_name(cc_knob_kind kind)
{
    switch (kind) {
    case CC_KNOB_KIND_USER: return "user";
    case CC_KNOB_KIND_AID: return "aid";
    case CC_KNOB_KIND_AGENT: return "agent";
    }
    return "?";
}

/* Whether the agent takes `value` for knob k: a malformed track spec is said on stderr and
 * ignored (agent/core/track_config.c); the other knobs take what they are given. */
static int cc_knob_value_taken(const cc_knob_info *k, const char *value)
{
    uint32_t bits = 0;
    return strcmp(k->name, "CUCHECK_TRACK") != 0 || cc_track_spec_parse(value, &bits) == 0;
}

int cc_knob_changes_checks(const cc_knob_info *k, const char *tool, const char *value)
{
    if (k == NULL || !k->changes_checks || value == NULL || value[0] == '\0') {
        return 0;
    }
    if (k->checks_tool != NULL && (tool == NULL || strcmp(k->checks_tool, tool) != 0)) {
        return 0;
    }
    if (k->checks_value != NULL) {
        return strcmp(k->checks_value, value) == 0;
    }
    return cc_knob_value_taken(k, value);
}

size_t cc_knob_notes(cc_reporter *r, const char *tool)
{
    size_t n = 0;
    for (size_t i = 0; i < CC_KNOB_TABLE_SIZE; i++) {
        const cc_knob_info *k = &cc_knob_table[i];
        const char *value = getenv(k->name);
        if (!cc_knob_changes_checks(k, tool, value)) {
            continue;
        }
        /* The value as the user wrote it, cut and with control bytes shown as '?': a note is
         * also printed as a line of text. */
        char shown[96];
        size_t len = 0;
        for (const char *p = value; *p != '\0' && len + 1 < sizeof shown; p++) {
            unsigned char c = (unsigned char)*p;
            shown[len++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
        }
        shown[len] = '\0';
        char note[512];
        snprintf(note, sizeof note, "%s=%s%s is in effect: %s", k->name, shown,
                 strlen(value) > len ? "..." : "", k->meaning);
        cc_reporter_note(r, note);
        n++;
    }
    return n;
}
