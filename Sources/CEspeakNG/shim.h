// libespeak-ng's public API: the classic speak_lib.h plus the espeak_ng.h initialisation calls.
#include <espeak-ng/speak_lib.h>
#include <espeak-ng/espeak_ng.h>
