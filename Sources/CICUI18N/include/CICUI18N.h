// ICU's transliterators (libicui18n) and its word break iterator (libicuuc), for Chinese, reached
// through dlopen: a process that never reads Chinese maps no ICU (linked, it cost every sd_utter
// start about 1.5 MiB of resident memory and a millisecond of relocations).
//
// ICU renames every C function with its version (utrans_openU becomes utrans_openU_72) through
// macros Swift cannot see; these wrappers keep the unversioned names, and the loader looks the
// versioned ones up from the installed headers. The prefix keeps them apart from CICU's.
#pragma once
#include <unicode/ubrk.h>
#include <unicode/utrans.h>
#include <unicode/utypes.h>

// Loads the libraries once (later calls return the first result): 0 when every function was
// found, -1 otherwise, with the dynamic linker's words in CICUI18N_loadError().
int CICUI18N_load(void);
const char *CICUI18N_loadError(void);

// The wrappers below may only be called after CICUI18N_load() returned 0.
UTransliterator *CICUI18N_utrans_open(const UChar *identifier, int32_t length, UErrorCode *status);
void CICUI18N_utrans_close(UTransliterator *transliterator);
// Transliterates text[0..<*length] in place; *length becomes the result's length, which may need
// up to capacity units (U_BUFFER_OVERFLOW_ERROR when it needs more).
void CICUI18N_utrans_transUChars(
    const UTransliterator *transliterator, UChar *text, int32_t *length, int32_t capacity, UErrorCode *status);
UBreakIterator *CICUI18N_ubrk_openWords(const char *locale, const UChar *text, int32_t length, UErrorCode *status);
void CICUI18N_ubrk_close(UBreakIterator *iterator);
int32_t CICUI18N_ubrk_next(UBreakIterator *iterator);
int32_t CICUI18N_ubrk_getRuleStatus(UBreakIterator *iterator);
const char *CICUI18N_u_errorName(UErrorCode code);
