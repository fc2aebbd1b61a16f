// libpulse's asynchronous API: the main loop, the context and playback streams.
#include <pulse/pulseaudio.h>
