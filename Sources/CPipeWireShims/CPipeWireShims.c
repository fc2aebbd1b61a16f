#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <pipewire/pipewire.h>
#include <spa/param/audio/format-utils.h>
#include "CPipeWireShims.h"

// libpipewire is opened when the first PipeWire stream is made, not linked: most modules play
// through libpulse or ALSA and never need its pages (0.44 MiB resident when it was linked). Every
// libpipewire function this file calls is listed here; the rest of PipeWire's API it uses are
// header macros and inline functions that call through the loop's and core's interfaces.
#define UTTER_PW_FUNCTIONS(X)                                                                                   \
    X(pw_init)                                                                                                  \
    X(pw_thread_loop_new) X(pw_thread_loop_get_loop) X(pw_thread_loop_start) X(pw_thread_loop_stop)             \
    X(pw_thread_loop_destroy) X(pw_thread_loop_lock) X(pw_thread_loop_unlock) X(pw_thread_loop_signal)          \
    X(pw_thread_loop_get_time) X(pw_thread_loop_timed_wait_full)                                                \
    X(pw_context_new) X(pw_context_connect) X(pw_context_destroy) X(pw_core_disconnect)                         \
    X(pw_properties_new) X(pw_properties_setf)                                                                  \
    X(pw_stream_new) X(pw_stream_add_listener) X(pw_stream_connect) X(pw_stream_set_active)                     \
    X(pw_stream_destroy) X(pw_stream_dequeue_buffer) X(pw_stream_queue_buffer) X(pw_stream_get_time_n)

// Written once under `library_once`, read-only after: the data thread calls through it without a lock.
static struct {
    char error[256];
#define UTTER_PW_POINTER(name) __typeof__(name) *name;
    UTTER_PW_FUNCTIONS(UTTER_PW_POINTER)
#undef UTTER_PW_POINTER
} library;
static pthread_once_t library_once = PTHREAD_ONCE_INIT;

static void open_library(void) {
    // RTLD_NODELETE: PipeWire's own threads may outlive the last stream of a module that shuts down.
    void *handle = dlopen("libpipewire-0.3.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (handle == NULL) {
        snprintf(library.error, sizeof library.error, "%s", dlerror());
        return;
    }
#define UTTER_PW_RESOLVE(name)                                                                                  \
    if ((library.name = (__typeof__(name) *)dlsym(handle, #name)) == NULL) {                                    \
        snprintf(library.error, sizeof library.error, "libpipewire-0.3.so.0 has no %s", #name);                 \
        return;                                                                                                 \
    }
    UTTER_PW_FUNCTIONS(UTTER_PW_RESOLVE)
#undef UTTER_PW_RESOLVE
}

const char *utter_pw_library_error(void) {
    pthread_once(&library_once, open_library);
    return library.error[0] != '\0' ? library.error : NULL;
}

// From here on each libpipewire function named is the one the library provides.
#define UTTER_PW_REDIRECT(name) library.name
#define pw_init UTTER_PW_REDIRECT(pw_init)
#define pw_thread_loop_new UTTER_PW_REDIRECT(pw_thread_loop_new)
#define pw_thread_loop_get_loop UTTER_PW_REDIRECT(pw_thread_loop_get_loop)
#define pw_thread_loop_start UTTER_PW_REDIRECT(pw_thread_loop_start)
#define pw_thread_loop_stop UTTER_PW_REDIRECT(pw_thread_loop_stop)
#define pw_thread_loop_destroy UTTER_PW_REDIRECT(pw_thread_loop_destroy)
#define pw_thread_loop_lock UTTER_PW_REDIRECT(pw_thread_loop_lock)
#define pw_thread_loop_unlock UTTER_PW_REDIRECT(pw_thread_loop_unlock)
#define pw_thread_loop_signal UTTER_PW_REDIRECT(pw_thread_loop_signal)
#define pw_thread_loop_get_time UTTER_PW_REDIRECT(pw_thread_loop_get_time)
#define pw_thread_loop_timed_wait_full UTTER_PW_REDIRECT(pw_thread_loop_timed_wait_full)
#define pw_context_new UTTER_PW_REDIRECT(pw_context_new)
#define pw_context_connect UTTER_PW_REDIRECT(pw_context_connect)
#define pw_context_destroy UTTER_PW_REDIRECT(pw_context_destroy)
#define pw_core_disconnect UTTER_PW_REDIRECT(pw_core_disconnect)
#define pw_properties_new UTTER_PW_REDIRECT(pw_properties_new)
#define pw_properties_setf UTTER_PW_REDIRECT(pw_properties_setf)
#define pw_stream_new UTTER_PW_REDIRECT(pw_stream_new)
#define pw_stream_add_listener UTTER_PW_REDIRECT(pw_stream_add_listener)
#define pw_stream_connect UTTER_PW_REDIRECT(pw_stream_connect)
#define pw_stream_set_active UTTER_PW_REDIRECT(pw_stream_set_active)
#define pw_stream_destroy UTTER_PW_REDIRECT(pw_stream_destroy)
#define pw_stream_dequeue_buffer UTTER_PW_REDIRECT(pw_stream_dequeue_buffer)
#define pw_stream_queue_buffer UTTER_PW_REDIRECT(pw_stream_queue_buffer)
#define pw_stream_get_time_n UTTER_PW_REDIRECT(pw_stream_get_time_n)

_Static_assert(UTTER_PW_STATE_ERROR == PW_STREAM_STATE_ERROR && UTTER_PW_STATE_UNCONNECTED == PW_STREAM_STATE_UNCONNECTED
                   && UTTER_PW_STATE_CONNECTING == PW_STREAM_STATE_CONNECTING
                   && UTTER_PW_STATE_PAUSED == PW_STREAM_STATE_PAUSED
                   && UTTER_PW_STATE_STREAMING == PW_STREAM_STATE_STREAMING,
               "the stream states Swift sees are PipeWire's");

struct utter_pw {
    struct utter_pw_callbacks callbacks;
    uint32_t rate;
    uint32_t quantum;
    struct pw_thread_loop *thread_loop;
    struct pw_loop *loop;
    struct pw_context *context;
    struct spa_source *event;
    struct spa_source *timer;
    struct pw_core *core;
    struct spa_hook core_listener;
    struct pw_stream *stream;
    struct spa_hook stream_listener;
};

// Data thread: one buffer per graph cycle. Only calls that PipeWire documents as usable from the
// process callback: dequeue, get_time_n (a seqlock read), queue, and signal_event (an eventfd write).
static void on_process(void *data) {
    struct utter_pw *pw = data;
    struct pw_buffer *buffer = pw_stream_dequeue_buffer(pw->stream);
    if (buffer == NULL) return;
    struct spa_data *first = &buffer->buffer->datas[0];
    int16_t *samples = first->data;
    if (samples == NULL) {
        pw_stream_queue_buffer(pw->stream, buffer);
        return;
    }
    uint32_t frames = first->maxsize / sizeof(int16_t);
    if (buffer->requested > 0 && buffer->requested < frames) frames = (uint32_t)buffer->requested;

    // The delay is in the graph's clock (rate.num / rate.denom seconds a tick): converted to our rate.
    struct pw_time time;
    uint64_t pending = 0;
    // When the graph cycle began (CLOCK_MONOTONIC ns), which the delay was measured at: the data
    // thread may run well after it (it need not have real-time priority), and the position heard
    // must be published for that moment, not for when this callback happened to run.
    uint64_t cycle_time = 0;
    if (pw_stream_get_time_n(pw->stream, &time, sizeof time) == 0) {
        if (time.rate.denom > 0 && time.delay > 0)
            pending = (uint64_t)time.delay * pw->rate * time.rate.num / time.rate.denom;
        pending += time.buffered + time.queued / sizeof(int16_t);
        if (time.now > 0) cycle_time = (uint64_t)time.now;
    }
    bool wake_loop = false;
    uint32_t filled =
        pw->callbacks.process(pw->callbacks.render_data, samples, frames, pending, cycle_time, &wake_loop);
    if (filled < frames) memset(samples + filled, 0, (frames - filled) * sizeof(int16_t));
    first->chunk->offset = 0;
    first->chunk->stride = sizeof(int16_t);
    first->chunk->size = frames * sizeof(int16_t);
    pw_stream_queue_buffer(pw->stream, buffer);
    if (wake_loop) pw_loop_signal_event(pw->loop, pw->event);
}

static void on_state_changed(void *data, enum pw_stream_state old, enum pw_stream_state state, const char *error) {
    (void)old;
    struct utter_pw *pw = data;
    pw->callbacks.state_changed(pw->callbacks.data, state, error);
    pw_thread_loop_signal(pw->thread_loop, false);
}

// The core's errors on the core itself are the connection's: the server went away (-EPIPE) or
// refused us. The stream is told too, but not in every version, so both are reported.
static void on_core_error(void *data, uint32_t id, int seq, int res, const char *message) {
    (void)seq;
    struct utter_pw *pw = data;
    if (id != PW_ID_CORE) return;
    char text[256];
    snprintf(text, sizeof text, "%s (%s)", message ? message : "error", strerror(res < 0 ? -res : res));
    pw->callbacks.state_changed(pw->callbacks.data, PW_STREAM_STATE_ERROR, text);
    pw_thread_loop_signal(pw->thread_loop, false);
}

static void on_event(void *data, uint64_t count) {
    (void)count;
    struct utter_pw *pw = data;
    pw->callbacks.event(pw->callbacks.data);
}

static void on_timer(void *data, uint64_t expirations) {
    (void)expirations;
    struct utter_pw *pw = data;
    pw->callbacks.timer(pw->callbacks.data);
}

static const struct pw_stream_events stream_events = {
    PW_VERSION_STREAM_EVENTS,
    .state_changed = on_state_changed,
    .process = on_process,
};

static const struct pw_core_events core_events = {
    PW_VERSION_CORE_EVENTS,
    .error = on_core_error,
};

struct utter_pw *utter_pw_new(const struct utter_pw_callbacks *callbacks, uint32_t rate, uint32_t quantum) {
    if (utter_pw_library_error() != NULL) {
        errno = ELIBACC;
        return NULL;
    }
    pw_init(NULL, NULL);
    struct utter_pw *pw = calloc(1, sizeof *pw);
    if (pw == NULL) return NULL;
    pw->callbacks = *callbacks;
    pw->rate = rate;
    pw->quantum = quantum;
    pw->thread_loop = pw_thread_loop_new("utter-pipewire", NULL);
    if (pw->thread_loop == NULL) goto failed;
    pw->loop = pw_thread_loop_get_loop(pw->thread_loop);
    // client-rt.conf: the configuration that gives the data thread real-time priority (module-rt).
    pw->context = pw_context_new(pw->loop, pw_properties_new(PW_KEY_CONFIG_NAME, "client-rt.conf", NULL), 0);
    if (pw->context == NULL) goto failed;
    pw->event = pw_loop_add_event(pw->loop, on_event, pw);
    pw->timer = pw_loop_add_timer(pw->loop, on_timer, pw);
    if (pw->event == NULL || pw->timer == NULL) goto failed;
    return pw;
failed:;
    int error = errno;
    utter_pw_destroy(pw);
    errno = error;
    return NULL;
}

int utter_pw_start(struct utter_pw *pw) {
    return pw_thread_loop_start(pw->thread_loop);
}

void utter_pw_lock(struct utter_pw *pw) {
    pw_thread_loop_lock(pw->thread_loop);
}

void utter_pw_unlock(struct utter_pw *pw) {
    pw_thread_loop_unlock(pw->thread_loop);
}

int utter_pw_wait(struct utter_pw *pw, int64_t timeout) {
    struct timespec until;
    pw_thread_loop_get_time(pw->thread_loop, &until, timeout);
    return pw_thread_loop_timed_wait_full(pw->thread_loop, &until);
}

int utter_pw_connect(struct utter_pw *pw, const char *remote, bool active) {
    struct pw_properties *core_properties = remote ? pw_properties_new(PW_KEY_REMOTE_NAME, remote, NULL) : NULL;
    pw->core = pw_context_connect(pw->context, core_properties, 0);
    if (pw->core == NULL) return -errno;
    pw_core_add_listener(pw->core, &pw->core_listener, &core_events, pw);

    // What the stream is, for the session manager's role policy (ducking) and for mixers.
    struct pw_properties *properties = pw_properties_new(
        PW_KEY_MEDIA_TYPE, "Audio", PW_KEY_MEDIA_CATEGORY, "Playback", PW_KEY_MEDIA_ROLE, "Accessibility",
        PW_KEY_MEDIA_NAME, "Speech", PW_KEY_APP_NAME, "Utter", PW_KEY_APP_ID, "org.utter.sd_utter",
        PW_KEY_APP_ICON_NAME, "preferences-desktop-accessibility", PW_KEY_NODE_NAME, "utter",
        PW_KEY_NODE_DESCRIPTION, "Utter speech", NULL);
    // The quantum we ask for; the graph may run a larger one, never a smaller one for our sake.
    pw_properties_setf(properties, PW_KEY_NODE_LATENCY, "%u/%u", pw->quantum, pw->rate);
    pw->stream = pw_stream_new(pw->core, "utter", properties);
    if (pw->stream == NULL) {
        int error = errno;
        utter_pw_disconnect(pw);
        return -error;
    }
    pw_stream_add_listener(pw->stream, &pw->stream_listener, &stream_events, pw);

    uint8_t storage[256];
    struct spa_pod_builder builder = SPA_POD_BUILDER_INIT(storage, sizeof storage);
    struct spa_audio_info_raw info = {
        .format = SPA_AUDIO_FORMAT_S16, .rate = pw->rate, .channels = 1, .position = {SPA_AUDIO_CHANNEL_MONO}};
    const struct spa_pod *params[1] = {spa_format_audio_raw_build(&builder, SPA_PARAM_EnumFormat, &info)};
    enum pw_stream_flags flags = PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS | PW_STREAM_FLAG_RT_PROCESS;
    if (!active) flags |= PW_STREAM_FLAG_INACTIVE;
    int result = pw_stream_connect(pw->stream, PW_DIRECTION_OUTPUT, PW_ID_ANY, flags, params, 1);
    if (result < 0) utter_pw_disconnect(pw);
    return result;
}

bool utter_pw_disconnect(struct utter_pw *pw) {
    bool had_stream = pw->stream != NULL;
    // Destroying the stream removes it from the data loop first: `process` is not called after.
    if (pw->stream != NULL) pw_stream_destroy(pw->stream);
    pw->stream = NULL;
    if (pw->core != NULL) {
        spa_hook_remove(&pw->core_listener);
        pw_core_disconnect(pw->core);
    }
    pw->core = NULL;
    return had_stream;
}

int utter_pw_set_active(struct utter_pw *pw, bool active) {
    return pw->stream ? pw_stream_set_active(pw->stream, active) : -ENOTCONN;
}

void utter_pw_set_timer(struct utter_pw *pw, uint64_t interval) {
    struct timespec value = {.tv_sec = interval / 1000000000, .tv_nsec = interval % 1000000000};
    pw_loop_update_timer(pw->loop, pw->timer, &value, &value, false);
}

void utter_pw_signal(struct utter_pw *pw) {
    pw_loop_signal_event(pw->loop, pw->event);
}

void utter_pw_destroy(struct utter_pw *pw) {
    if (pw == NULL) return;
    if (pw->thread_loop != NULL) pw_thread_loop_stop(pw->thread_loop);
    utter_pw_disconnect(pw);
    if (pw->event != NULL) pw_loop_destroy_source(pw->loop, pw->event);
    if (pw->timer != NULL) pw_loop_destroy_source(pw->loop, pw->timer);
    if (pw->context != NULL) pw_context_destroy(pw->context);
    if (pw->thread_loop != NULL) pw_thread_loop_destroy(pw->thread_loop);
    free(pw);
}
