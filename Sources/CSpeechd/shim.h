// libspeechd: the SSIP client library of speech-dispatcher.
#include <libspeechd.h>
