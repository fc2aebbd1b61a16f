// ICU's common library: the sentence break iterator and the break data it ships.
//
// ICU renames every C function with its version (ubrk_open becomes ubrk_open_72) through macros
// Swift cannot see, so Swift would have to name the versioned symbol and break on the next ICU.
// These wrappers keep the unversioned names, resolved by the C compiler against the installed
// headers.
#include <unicode/ubrk.h>
#include <unicode/ures.h>
#include <unicode/udata.h>

static inline UBreakIterator *CICU_ubrk_openSentences(
    const char *locale, const UChar *text, int32_t length, UErrorCode *status) {
    return ubrk_open(UBRK_SENTENCE, locale, text, length, status);
}

static inline void CICU_ubrk_close(UBreakIterator *iterator) { ubrk_close(iterator); }

static inline int32_t CICU_ubrk_next(UBreakIterator *iterator) { return ubrk_next(iterator); }

// The break rules' resource bundle for a locale (with ICU's locale fallback), where the
// abbreviations that do not end a sentence are listed.
static inline UResourceBundle *CICU_ures_openBreakData(const char *locale, UErrorCode *status) {
    return ures_open(U_ICUDATA_NAME U_TREE_SEPARATOR_STRING "brkitr", locale, status);
}

static inline UResourceBundle *CICU_ures_getByKey(
    const UResourceBundle *bundle, const char *key, UResourceBundle *fill, UErrorCode *status) {
    return ures_getByKey(bundle, key, fill, status);
}

static inline int32_t CICU_ures_getSize(const UResourceBundle *bundle) { return ures_getSize(bundle); }

static inline const UChar *CICU_ures_getStringByIndex(
    const UResourceBundle *bundle, int32_t index, int32_t *length, UErrorCode *status) {
    return ures_getStringByIndex(bundle, index, length, status);
}

static inline void CICU_ures_close(UResourceBundle *bundle) { ures_close(bundle); }

static inline const char *CICU_u_errorName(UErrorCode code) { return u_errorName(code); }
