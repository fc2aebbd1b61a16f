#ifndef C_PIPEWIRE_SHIMS_H
#define C_PIPEWIRE_SHIMS_H
// Utter's PipeWire playback stream as plain functions: SPA's pod builder and most pw_loop helpers
// are static inline functions or macros Swift cannot import, and the process callback is easier
// to keep real-time-safe when dequeuing and queuing buffers stays here.
#include <stdbool.h>
#include <stdint.h>

struct pw_thread_loop;

/// The values of PipeWire's `enum pw_stream_state` (checked against it in CPipeWireShims.c), so
/// that Swift needs none of PipeWire's headers.
enum {
    UTTER_PW_STATE_ERROR = -1,
    UTTER_PW_STATE_UNCONNECTED = 0,
    UTTER_PW_STATE_CONNECTING = 1,
    UTTER_PW_STATE_PAUSED = 2,
    UTTER_PW_STATE_STREAMING = 3,
};

/// A thread loop with a context, a discard timer and a wake event; at most one core and stream.
struct utter_pw;

/// What the stream calls back. `process` runs on PipeWire's real-time data thread, the others on
/// the thread loop's thread with its lock held.
struct utter_pw_callbacks {
    void *render_data;
    /// Fills at most `frames` samples (the rest is made silence) and returns how many it filled.
    /// `pending`: frames (at the stream's rate) the stream plays before the first of these.
    /// Sets `*wake_loop` to have `event` called on the loop thread.
    uint32_t (*process)(void *render_data, int16_t *samples, uint32_t frames, uint64_t pending, uint64_t cycle_time,
                        bool *wake_loop);
    void *data;
    /// The stream changed state (enum pw_stream_state); `error` is set when it or the core failed.
    void (*state_changed)(void *data, int state, const char *error);
    /// The event was signalled (by `process` or utter_pw_signal).
    void (*event)(void *data);
    /// The timer fired (see utter_pw_set_timer).
    void (*timer)(void *data);
};

/// Opens libpipewire-0.3 the first time it is called; NULL once it is open, else why it cannot be.
const char *utter_pw_library_error(void);
/// Creates the loop (not started yet) for a mono S16 stream at `rate` asking for a quantum of
/// `quantum` frames. NULL with errno set on failure (ELIBACC: see utter_pw_library_error).
struct utter_pw *utter_pw_new(const struct utter_pw_callbacks *callbacks, uint32_t rate, uint32_t quantum);
/// Starts the loop's thread; 0 or a negative errno.
int utter_pw_start(struct utter_pw *pw);
void utter_pw_lock(struct utter_pw *pw);
void utter_pw_unlock(struct utter_pw *pw);
/// With the lock held: waits for a state change or `timeout` nanoseconds; 0, or -ETIMEDOUT.
int utter_pw_wait(struct utter_pw *pw, int64_t timeout);
/// With the lock held: connects to the server (`remote`: a name or a socket path; NULL: the
/// default) and connects a playback stream to the default sink, active or not. 0 or -errno.
int utter_pw_connect(struct utter_pw *pw, const char *remote, bool active);
/// With the lock held: destroys the stream and the core; whether there was a stream.
bool utter_pw_disconnect(struct utter_pw *pw);
/// With the lock held: (de)activates the stream; 0 or a negative errno.
int utter_pw_set_active(struct utter_pw *pw, bool active);
/// With the lock held: fires the timer every `interval` nanoseconds from now on; 0 disarms it.
void utter_pw_set_timer(struct utter_pw *pw, uint64_t interval);
/// Any thread: has `event` called on the loop thread (an eventfd write: real-time safe).
void utter_pw_signal(struct utter_pw *pw);
/// Without the lock: stops the loop's thread and frees everything.
void utter_pw_destroy(struct utter_pw *pw);
#endif
