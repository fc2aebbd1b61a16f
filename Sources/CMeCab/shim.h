// MeCab's C API, for its types: the functions are reached through dlopen (JapaneseReading's
// MeCabLibrary), so nothing links libmecab. Debian's libmecab-dev ships no pkg-config file.
#include <mecab.h>
