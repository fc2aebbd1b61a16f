// libsndfile: reads WAV, AIFF, FLAC, Ogg and more.
#include <sndfile.h>
