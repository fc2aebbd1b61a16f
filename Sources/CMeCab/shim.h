// MeCab's C API. Debian's libmecab-dev ships no pkg-config file, so the header and library are
// named here directly (mecab-config is the only other way to find them).
#include <mecab.h>
