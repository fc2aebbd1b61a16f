#ifndef C_ONNX_RUNTIME_H
#define C_ONNX_RUNTIME_H
// The part of ONNX Runtime's C API that Utter uses, declared from its documentation (no header
// of ONNX Runtime is needed to build). The library hands out a table of function pointers for the
// API version asked for; the table only ever grows at its end, so each function is reached by
// its documented position in it. Every call returns a status: NULL for success.
#include <stddef.h>
#include <stdint.h>

typedef struct UtterOrtStatus UtterOrtStatus;
typedef struct UtterOrtEnv UtterOrtEnv;
typedef struct UtterOrtSessionOptions UtterOrtSessionOptions;
typedef struct UtterOrtSession UtterOrtSession;
typedef struct UtterOrtRunOptions UtterOrtRunOptions;
typedef struct UtterOrtValue UtterOrtValue;
typedef struct UtterOrtMemoryInfo UtterOrtMemoryInfo;
typedef struct UtterOrtTensorInfo UtterOrtTensorInfo;
typedef struct UtterOrtAllocator UtterOrtAllocator;

/// What `OrtGetApiBase` returns: the API table for a version (NULL when the library is older),
/// and the library's version string.
typedef struct UtterOrtApiBase {
    const void *(*getApi)(uint32_t version);
    const char *(*getVersionString)(void);
} UtterOrtApiBase;

typedef const UtterOrtApiBase *(*UtterOrtGetApiBase)(void);

/// Element types (ONNX's TensorProto data types).
enum { UtterOrtFloat = 1, UtterOrtInt64 = 7 };

/// `OrtGetApiBase`'s result from the symbol's address.
const UtterOrtApiBase *COnnxRuntime_apiBase(void *getApiBaseSymbol);

/// The error message of `status` (valid until the status is released).
const char *COnnxRuntime_errorMessage(const void *api, const UtterOrtStatus *status);
int COnnxRuntime_errorCode(const void *api, const UtterOrtStatus *status);
UtterOrtStatus *COnnxRuntime_createStatus(const void *api, int code, const char *message);
void COnnxRuntime_releaseStatus(const void *api, UtterOrtStatus *status);

UtterOrtStatus *COnnxRuntime_createEnv(const void *api, int logLevel, const char *name, UtterOrtEnv **out);
void COnnxRuntime_releaseEnv(const void *api, UtterOrtEnv *env);

UtterOrtStatus *COnnxRuntime_createSessionOptions(const void *api, UtterOrtSessionOptions **out);
UtterOrtStatus *COnnxRuntime_setIntraOpThreads(const void *api, UtterOrtSessionOptions *options, int threads);
UtterOrtStatus *COnnxRuntime_setInterOpThreads(const void *api, UtterOrtSessionOptions *options, int threads);
void COnnxRuntime_releaseSessionOptions(const void *api, UtterOrtSessionOptions *options);

UtterOrtStatus *COnnxRuntime_createSessionFromArray(
    const void *api, const UtterOrtEnv *env, const void *data, size_t length, const UtterOrtSessionOptions *options,
    UtterOrtSession **out);
/// A session for the model file at `path` (ONNX Runtime reads it itself: on Linux a path is bytes).
UtterOrtStatus *COnnxRuntime_createSession(
    const void *api, const UtterOrtEnv *env, const char *path, const UtterOrtSessionOptions *options,
    UtterOrtSession **out);
void COnnxRuntime_releaseSession(const void *api, UtterOrtSession *session);
UtterOrtStatus *COnnxRuntime_inputCount(const void *api, const UtterOrtSession *session, size_t *out);
UtterOrtStatus *COnnxRuntime_outputCount(const void *api, const UtterOrtSession *session, size_t *out);
/// The name of input (or output) `index`, allocated by `allocator` (free it with `COnnxRuntime_free`).
UtterOrtStatus *COnnxRuntime_inputName(
    const void *api, const UtterOrtSession *session, size_t index, UtterOrtAllocator *allocator, char **out);
UtterOrtStatus *COnnxRuntime_outputName(
    const void *api, const UtterOrtSession *session, size_t index, UtterOrtAllocator *allocator, char **out);
UtterOrtStatus *COnnxRuntime_defaultAllocator(const void *api, UtterOrtAllocator **out);
UtterOrtStatus *COnnxRuntime_free(const void *api, UtterOrtAllocator *allocator, void *pointer);

UtterOrtStatus *COnnxRuntime_createRunOptions(const void *api, UtterOrtRunOptions **out);
UtterOrtStatus *COnnxRuntime_setTerminate(const void *api, UtterOrtRunOptions *options);
UtterOrtStatus *COnnxRuntime_unsetTerminate(const void *api, UtterOrtRunOptions *options);
void COnnxRuntime_releaseRunOptions(const void *api, UtterOrtRunOptions *options);

UtterOrtStatus *COnnxRuntime_createCpuMemoryInfo(const void *api, UtterOrtMemoryInfo **out);
void COnnxRuntime_releaseMemoryInfo(const void *api, UtterOrtMemoryInfo *info);
/// A tensor over `data` (owned by the caller, which keeps it alive as long as the value).
UtterOrtStatus *COnnxRuntime_createTensor(
    const void *api, const UtterOrtMemoryInfo *info, void *data, size_t byteCount, const int64_t *shape,
    size_t rank, int elementType, UtterOrtValue **out);
void COnnxRuntime_releaseValue(const void *api, UtterOrtValue *value);
UtterOrtStatus *COnnxRuntime_tensorData(const void *api, UtterOrtValue *value, void **out);
UtterOrtStatus *COnnxRuntime_tensorInfo(const void *api, const UtterOrtValue *value, UtterOrtTensorInfo **out);
UtterOrtStatus *COnnxRuntime_elementCount(const void *api, const UtterOrtTensorInfo *info, size_t *out);
UtterOrtStatus *COnnxRuntime_elementType(const void *api, const UtterOrtTensorInfo *info, int *out);
void COnnxRuntime_releaseTensorInfo(const void *api, UtterOrtTensorInfo *info);

UtterOrtStatus *COnnxRuntime_run(
    const void *api, UtterOrtSession *session, const UtterOrtRunOptions *options, const char *const *inputNames,
    const UtterOrtValue *const *inputs, size_t inputCount, const char *const *outputNames, size_t outputCount,
    UtterOrtValue **outputs);

#endif
