// OpenSSL's libcrypto: SHA-256 through the EVP digest interface.
#include <openssl/evp.h>
