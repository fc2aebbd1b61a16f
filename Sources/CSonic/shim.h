// libsonic: speeds speech up or slows it down with its pitch kept (Debian: libsonic-dev, no pkg-config file).
#include <sonic.h>
