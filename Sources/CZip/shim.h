// libzip: reads the members of a zip archive (a NumPy .npz is one).
#include <zip.h>
