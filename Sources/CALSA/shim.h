// alsa-lib's PCM and configuration API.
#include <alsa/asoundlib.h>
