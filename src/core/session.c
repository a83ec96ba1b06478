/* A checking session: binds one tool (handed over by the caller) to a reporter and an options
 * list that the tool's check_options accepted, keeps the host stacks that the event stream
 * defines, and forwards events to the tool under a lock (tools are written single-threaded; the
 * agent calls in from many threads). */
#include "core/session.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "core/grow.h"
#include "core/hashmap.h"
#include "core/options.h"

typedef struct cc_stored_stack {
    cc_ev_host_stack stack;  /* frames and texts owned by this entry */
    cc_stack_frame *frames;
} cc_stored_stack;

struct cc_session {
    const cc_tool *tool;
    void *state;
    cc_tool_host host;
    cc_reporter *reporter;
    cc_options *options;
    pthread_mutex_t lock;
    cc_stored_stack *stacks;  /* in order of definition */
    size_t stack_count, stack_cap;
    cc_hashmap stack_index;   /* stack id -> index into stacks */
    int (*resolve)(uint64_t id, cc_session_stack_sink sink, void *sink_arg, void *arg);
    void *resolve_arg;
    int closed;
};

static void free_stack(cc_stored_stack *st) {
    for (uint32_t i = 0; i < st->stack.nframes; i++) free((char *)st->frames[i].text);
    free(st->frames);
    memset(st, 0, sizeof *st);
}

static void store_stack(cc_session *s, const cc_ev_host_stack *in) {
    if (in->id == 0) return;
    if (CC_ARRAY_RESERVE(s->stacks, s->stack_cap, s->stack_count + 1) != 0) return;
    int added = 0;
    uint64_t *index = cc_hashmap_get_or_add(&s->stack_index, in->id, s->stack_count, &added);
    if (!index) return;
    cc_stored_stack *st = &s->stacks[*index];
    if (added) s->stack_count++;
    else free_stack(st); /* redefinition replaces */
    st->frames = in->nframes ? calloc(in->nframes, sizeof *st->frames) : NULL;
    uint32_t n = st->frames ? in->nframes : 0;
    for (uint32_t i = 0; i < n; i++) {
        st->frames[i].pc = in->frames[i].pc;
        st->frames[i].text = strdup(in->frames[i].text ? in->frames[i].text : "");
    }
    st->stack.id = in->id;
    st->stack.nframes = n;
    st->stack.frames = st->frames;
}

static const cc_ev_host_stack *find_stack(const cc_session *s, uint64_t id) {
    const uint64_t *index = id != 0 ? cc_hashmap_get(&s->stack_index, id) : NULL;
    return index ? &s->stacks[*index].stack : NULL;
}

static void store_resolved(const cc_ev_host_stack *stack, void *sink_arg) {
    store_stack(sink_arg, stack);
}

static const cc_ev_host_stack *host_stack(cc_tool_host *host, uint64_t id) {
    cc_session *s = host->impl;
    const cc_ev_host_stack *st = find_stack(s, id);
    if (st == NULL && id != 0 && s->resolve != NULL &&
        s->resolve(id, store_resolved, s, s->resolve_arg) == 0)
        st = find_stack(s, id);
    return st;
}

void cc_session_set_stack_resolver(cc_session *s,
                                   int (*resolve)(uint64_t id, cc_session_stack_sink sink,
                                                  void *sink_arg, void *arg),
                                   void *arg) {
    pthread_mutex_lock(&s->lock);
    s->resolve = resolve;
    s->resolve_arg = arg;
    pthread_mutex_unlock(&s->lock);
}

static void host_report(cc_tool_host *host, const cc_finding *f) {
    cc_session *s = host->impl;
    cc_reporter_add(s->reporter, f);
}

static const char *host_option(cc_tool_host *host, const char *name) {
    cc_session *s = host->impl;
    return cc_options_get(s->options, name);
}

static void host_note(cc_tool_host *host, const char *text) {
    cc_session *s = host->impl;
    cc_reporter_note(s->reporter, text);
}

cc_session *cc_session_open(const cc_session_config *cfg, char *err, size_t errlen) {
    const cc_tool *tool = cfg->tool;
    if (!tool) {
        snprintf(err, errlen, "unknown tool");
        return NULL;
    }
    cc_session *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->tool = tool;
    s->options = cc_options_parse(cfg->options);
    if (!s->options) {
        snprintf(err, errlen, "malformed tool options");
        free(s);
        return NULL;
    }
    if (tool->check_options &&
        tool->check_options(cc_options_getter, s->options, err, errlen) != 0) {
        cc_options_free(s->options);
        free(s);
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    cc_report_config rc = cfg->report;
    if (!rc.tool) rc.tool = tool->name;
    s->reporter = cc_reporter_open(&rc, err, errlen);
    if (!s->reporter) {
        pthread_mutex_destroy(&s->lock);
        cc_options_free(s->options);
        free(s);
        return NULL;
    }
    s->host.report = host_report;
    s->host.option = host_option;
    s->host.stack = host_stack;
    s->host.note = host_note;
    s->host.impl = s;
    s->state = tool->init(&s->host, err, errlen);
    if (!s->state) {
        cc_reporter_close(s->reporter);
        pthread_mutex_destroy(&s->lock);
        cc_options_free(s->options);
        free(s);
        return NULL;
    }
    return s;
}

void cc_session_event(cc_session *s, const cc_event *ev) {
    cc_session_events(s, ev, 1);
}

void cc_session_events(cc_session *s, const cc_event *evs, size_t n) {
    pthread_mutex_lock(&s->lock);
    for (size_t i = 0; i < n && !s->closed; i++) {
        if (evs[i].h.kind == CC_EV_HOST_STACK) store_stack(s, &evs[i].u.host_stack);
        s->tool->on_event(s->state, &evs[i]);
    }
    pthread_mutex_unlock(&s->lock);
}

cc_reporter *cc_session_reporter(cc_session *s) { return s->reporter; }

uint64_t cc_session_close(cc_session *s) {
    pthread_mutex_lock(&s->lock);
    s->closed = 1;
    s->tool->on_exit(s->state);
    uint64_t errors = cc_reporter_errors(s->reporter);
    cc_reporter_close(s->reporter);
    pthread_mutex_unlock(&s->lock);
    for (size_t i = 0; i < s->stack_count; i++) free_stack(&s->stacks[i]);
    free(s->stacks);
    cc_hashmap_free(&s->stack_index);
    cc_options_free(s->options);
    pthread_mutex_destroy(&s->lock);
    free(s);
    return errors;
}
