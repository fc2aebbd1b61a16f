// ICU's transliterators (libicui18n) and its word break iterator (libicuuc), for Chinese.
//
// ICU renames every C function with its version (utrans_openU becomes utrans_openU_72) through
// macros Swift cannot see; these wrappers keep the unversioned names, resolved by the C compiler
// against the installed headers. The prefix keeps them apart from CICU's wrappers.
#include <unicode/utrans.h>
#include <unicode/ubrk.h>
#include <unicode/utypes.h>

static inline UTransliterator *CICUI18N_utrans_open(
    const UChar *identifier, int32_t length, UErrorCode *status) {
    return utrans_openU(identifier, length, UTRANS_FORWARD, NULL, 0, NULL, status);
}

static inline void CICUI18N_utrans_close(UTransliterator *transliterator) { utrans_close(transliterator); }

// Transliterates text[0..<*length] in place; *length becomes the result's length, which may need
// up to capacity units (U_BUFFER_OVERFLOW_ERROR when it needs more).
static inline void CICUI18N_utrans_transUChars(
    const UTransliterator *transliterator, UChar *text, int32_t *length, int32_t capacity,
    UErrorCode *status) {
    int32_t limit = *length;
    utrans_transUChars(transliterator, text, length, capacity, 0, &limit, status);
}

static inline UBreakIterator *CICUI18N_ubrk_openWords(
    const char *locale, const UChar *text, int32_t length, UErrorCode *status) {
    return ubrk_open(UBRK_WORD, locale, text, length, status);
}

static inline void CICUI18N_ubrk_close(UBreakIterator *iterator) { ubrk_close(iterator); }

static inline int32_t CICUI18N_ubrk_next(UBreakIterator *iterator) { return ubrk_next(iterator); }

static inline int32_t CICUI18N_ubrk_getRuleStatus(UBreakIterator *iterator) {
    return ubrk_getRuleStatus(iterator);
}

static inline const char *CICUI18N_u_errorName(UErrorCode code) { return u_errorName(code); }
