#include "CICUI18N.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <unicode/uvernum.h>

// A name with the installed ICU's version suffix: CICUI18N_NAME(utrans_openU) is "utrans_openU_72".
#define CICUI18N_QUOTE(name) #name
#define CICUI18N_NAME(name) CICUI18N_QUOTE(name)

// Written once under pthread_once, read only afterwards.
static struct {
    UTransliterator *(*utrans_openU)(
        const UChar *, int32_t, UTransDirection, const UChar *, int32_t, UParseError *, UErrorCode *);
    void (*utrans_close)(UTransliterator *);
    void (*utrans_transUChars)(const UTransliterator *, UChar *, int32_t *, int32_t, int32_t, int32_t *, UErrorCode *);
    UBreakIterator *(*ubrk_open)(UBreakIteratorType, const char *, const UChar *, int32_t, UErrorCode *);
    void (*ubrk_close)(UBreakIterator *);
    int32_t (*ubrk_next)(UBreakIterator *);
    int32_t (*ubrk_getRuleStatus)(UBreakIterator *);
    const char *(*u_errorName)(UErrorCode);
    int result;
    char error[256];
} icu;

static pthread_once_t icuOnce = PTHREAD_ONCE_INIT;

static void *CICUI18N_find(void *library, const char *name) {
    void *address = library ? dlsym(library, name) : NULL;
    if (!address && icu.result == 0) {
        const char *why = dlerror();
        snprintf(icu.error, sizeof icu.error, "%s", why ? why : name);
        icu.result = -1;
    }
    return address;
}

static void CICUI18N_loadOnce(void) {
    void *common = dlopen("libicuuc.so." CICUI18N_NAME(U_ICU_VERSION_MAJOR_NUM), RTLD_NOW | RTLD_LOCAL);
    void *i18n = common ? dlopen("libicui18n.so." CICUI18N_NAME(U_ICU_VERSION_MAJOR_NUM), RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!common || !i18n) {
        const char *why = dlerror();
        snprintf(icu.error, sizeof icu.error, "%s", why ? why : "ICU's libraries are not installed");
        icu.result = -1;
        return;
    }
    icu.utrans_openU = CICUI18N_find(i18n, CICUI18N_NAME(utrans_openU));
    icu.utrans_close = CICUI18N_find(i18n, CICUI18N_NAME(utrans_close));
    icu.utrans_transUChars = CICUI18N_find(i18n, CICUI18N_NAME(utrans_transUChars));
    icu.ubrk_open = CICUI18N_find(common, CICUI18N_NAME(ubrk_open));
    icu.ubrk_close = CICUI18N_find(common, CICUI18N_NAME(ubrk_close));
    icu.ubrk_next = CICUI18N_find(common, CICUI18N_NAME(ubrk_next));
    icu.ubrk_getRuleStatus = CICUI18N_find(common, CICUI18N_NAME(ubrk_getRuleStatus));
    icu.u_errorName = CICUI18N_find(common, CICUI18N_NAME(u_errorName));
}

int CICUI18N_load(void) {
    pthread_once(&icuOnce, CICUI18N_loadOnce);
    return icu.result;
}

const char *CICUI18N_loadError(void) { return icu.error; }

UTransliterator *CICUI18N_utrans_open(const UChar *identifier, int32_t length, UErrorCode *status) {
    return icu.utrans_openU(identifier, length, UTRANS_FORWARD, NULL, 0, NULL, status);
}

void CICUI18N_utrans_close(UTransliterator *transliterator) { icu.utrans_close(transliterator); }

void CICUI18N_utrans_transUChars(
    const UTransliterator *transliterator, UChar *text, int32_t *length, int32_t capacity, UErrorCode *status) {
    int32_t limit = *length;
    icu.utrans_transUChars(transliterator, text, length, capacity, 0, &limit, status);
}

UBreakIterator *CICUI18N_ubrk_openWords(const char *locale, const UChar *text, int32_t length, UErrorCode *status) {
    return icu.ubrk_open(UBRK_WORD, locale, text, length, status);
}

void CICUI18N_ubrk_close(UBreakIterator *iterator) { icu.ubrk_close(iterator); }

int32_t CICUI18N_ubrk_next(UBreakIterator *iterator) { return icu.ubrk_next(iterator); }

int32_t CICUI18N_ubrk_getRuleStatus(UBreakIterator *iterator) { return icu.ubrk_getRuleStatus(iterator); }

const char *CICUI18N_u_errorName(UErrorCode code) { return icu.u_errorName(code); }
