/* initcheck's agent-side model (ic_model.h): one cc_init_model under one mutex. */
#include <pthread.h>
#include "agent/tools/initcheck/ic_model.h"
#include "tools/initcheck/init_model.h"

static cc_init_model ic_model_g;
static pthread_mutex_t ic_model_lock = PTHREAD_MUTEX_INITIALIZER;

void cc_ic_model_on_event(const cc_event *ev)
{
    if (cc_init_model_wants(ev->h.kind)) {
        pthread_mutex_lock(&ic_model_lock);
        cc_init_model_apply(&ic_model_g, ev);
        pthread_mutex_unlock(&ic_model_lock);
    }
}

size_t cc_ic_model_uninit(uint64_t context, cc_init_range *out, size_t max)
{
    pthread_mutex_lock(&ic_model_lock);
    size_t n = cc_init_model_uninit_ranges(&ic_model_g, context, out, max, NULL);
    pthread_mutex_unlock(&ic_model_lock);
    return n;
}
