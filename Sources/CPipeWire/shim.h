// libpipewire-0.3's client API (its types and plain functions; the inline helpers and macros are
// wrapped by CPipeWireShims).
#include <pipewire/pipewire.h>
