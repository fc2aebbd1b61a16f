#include "COnnxRuntime.h"

// Positions in the API table, as ONNX Runtime's documentation orders the functions of version 1.
enum {
    CreateStatus = 0, GetErrorCode = 1, GetErrorMessage = 2, CreateEnv = 3,
    CreateSession = 7, CreateSessionFromArray = 8, Run = 9, CreateSessionOptions = 10,
    SetIntraOpNumThreads = 24, SetInterOpNumThreads = 25,
    SessionGetInputCount = 30, SessionGetOutputCount = 31, SessionGetInputName = 36, SessionGetOutputName = 37,
    CreateRunOptions = 39, RunOptionsSetTerminate = 46, RunOptionsUnsetTerminate = 47,
    CreateTensorWithDataAsOrtValue = 49, GetTensorMutableData = 51,
    GetTensorElementType = 60, GetTensorShapeElementCount = 64, GetTensorTypeAndShape = 65,
    CreateCpuMemoryInfo = 69, AllocatorFree = 76, GetAllocatorWithDefaultOptions = 78,
    ReleaseEnv = 92, ReleaseStatus = 93, ReleaseMemoryInfo = 94, ReleaseSession = 95, ReleaseValue = 96,
    ReleaseRunOptions = 97, ReleaseTensorTypeAndShapeInfo = 99, ReleaseSessionOptions = 100,
};

#define SLOT(api, index) (((void *const *)(api))[index])
#define CALL(api, index, type, ...) ((type)SLOT(api, index))(__VA_ARGS__)


const UtterOrtApiBase *COnnxRuntime_apiBase(void *symbol) {
    return ((UtterOrtGetApiBase)symbol)();
}

const char *COnnxRuntime_errorMessage(const void *api, const UtterOrtStatus *status) {
    return CALL(api, GetErrorMessage, const char *(*)(const UtterOrtStatus *), status);
}

int COnnxRuntime_errorCode(const void *api, const UtterOrtStatus *status) {
    return CALL(api, GetErrorCode, int (*)(const UtterOrtStatus *), status);
}

UtterOrtStatus *COnnxRuntime_createStatus(const void *api, int code, const char *message) {
    return CALL(api, CreateStatus, UtterOrtStatus *(*)(int, const char *), code, message);
}

void COnnxRuntime_releaseStatus(const void *api, UtterOrtStatus *status) {
    CALL(api, ReleaseStatus, void (*)(UtterOrtStatus *), status);
}

UtterOrtStatus *COnnxRuntime_createEnv(const void *api, int logLevel, const char *name, UtterOrtEnv **out) {
    return CALL(api, CreateEnv, UtterOrtStatus *(*)(int, const char *, UtterOrtEnv **), logLevel, name, out);
}

void COnnxRuntime_releaseEnv(const void *api, UtterOrtEnv *env) {
    CALL(api, ReleaseEnv, void (*)(UtterOrtEnv *), env);
}

UtterOrtStatus *COnnxRuntime_createSessionOptions(const void *api, UtterOrtSessionOptions **out) {
    return CALL(api, CreateSessionOptions, UtterOrtStatus *(*)(UtterOrtSessionOptions **), out);
}

UtterOrtStatus *COnnxRuntime_setIntraOpThreads(const void *api, UtterOrtSessionOptions *options, int threads) {
    return CALL(api, SetIntraOpNumThreads, UtterOrtStatus *(*)(UtterOrtSessionOptions *, int), options, threads);
}

UtterOrtStatus *COnnxRuntime_setInterOpThreads(const void *api, UtterOrtSessionOptions *options, int threads) {
    return CALL(api, SetInterOpNumThreads, UtterOrtStatus *(*)(UtterOrtSessionOptions *, int), options, threads);
}

void COnnxRuntime_releaseSessionOptions(const void *api, UtterOrtSessionOptions *options) {
    CALL(api, ReleaseSessionOptions, void (*)(UtterOrtSessionOptions *), options);
}

UtterOrtStatus *COnnxRuntime_createSessionFromArray(
    const void *api, const UtterOrtEnv *env, const void *data, size_t length, const UtterOrtSessionOptions *options,
    UtterOrtSession **out) {
    return CALL(
        api, CreateSessionFromArray,
        UtterOrtStatus *(*)(const UtterOrtEnv *, const void *, size_t, const UtterOrtSessionOptions *, UtterOrtSession **),
        env, data, length, options, out);
}

UtterOrtStatus *COnnxRuntime_createSession(
    const void *api, const UtterOrtEnv *env, const char *path, const UtterOrtSessionOptions *options,
    UtterOrtSession **out) {
    return CALL(
        api, CreateSession,
        UtterOrtStatus *(*)(const UtterOrtEnv *, const char *, const UtterOrtSessionOptions *, UtterOrtSession **),
        env, path, options, out);
}

void COnnxRuntime_releaseSession(const void *api, UtterOrtSession *session) {
    CALL(api, ReleaseSession, void (*)(UtterOrtSession *), session);
}

UtterOrtStatus *COnnxRuntime_inputCount(const void *api, const UtterOrtSession *session, size_t *out) {
    return CALL(api, SessionGetInputCount, UtterOrtStatus *(*)(const UtterOrtSession *, size_t *), session, out);
}

UtterOrtStatus *COnnxRuntime_outputCount(const void *api, const UtterOrtSession *session, size_t *out) {
    return CALL(api, SessionGetOutputCount, UtterOrtStatus *(*)(const UtterOrtSession *, size_t *), session, out);
}

typedef UtterOrtStatus *(*NameFunction)(const UtterOrtSession *, size_t, UtterOrtAllocator *, char **);

UtterOrtStatus *COnnxRuntime_inputName(
    const void *api, const UtterOrtSession *session, size_t index, UtterOrtAllocator *allocator, char **out) {
    return CALL(api, SessionGetInputName, NameFunction, session, index, allocator, out);
}

UtterOrtStatus *COnnxRuntime_outputName(
    const void *api, const UtterOrtSession *session, size_t index, UtterOrtAllocator *allocator, char **out) {
    return CALL(api, SessionGetOutputName, NameFunction, session, index, allocator, out);
}

UtterOrtStatus *COnnxRuntime_defaultAllocator(const void *api, UtterOrtAllocator **out) {
    return CALL(api, GetAllocatorWithDefaultOptions, UtterOrtStatus *(*)(UtterOrtAllocator **), out);
}

UtterOrtStatus *COnnxRuntime_free(const void *api, UtterOrtAllocator *allocator, void *pointer) {
    return CALL(api, AllocatorFree, UtterOrtStatus *(*)(UtterOrtAllocator *, void *), allocator, pointer);
}

UtterOrtStatus *COnnxRuntime_createRunOptions(const void *api, UtterOrtRunOptions **out) {
    return CALL(api, CreateRunOptions, UtterOrtStatus *(*)(UtterOrtRunOptions **), out);
}

UtterOrtStatus *COnnxRuntime_setTerminate(const void *api, UtterOrtRunOptions *options) {
    return CALL(api, RunOptionsSetTerminate, UtterOrtStatus *(*)(UtterOrtRunOptions *), options);
}

UtterOrtStatus *COnnxRuntime_unsetTerminate(const void *api, UtterOrtRunOptions *options) {
    return CALL(api, RunOptionsUnsetTerminate, UtterOrtStatus *(*)(UtterOrtRunOptions *), options);
}

void COnnxRuntime_releaseRunOptions(const void *api, UtterOrtRunOptions *options) {
    CALL(api, ReleaseRunOptions, void (*)(UtterOrtRunOptions *), options);
}

UtterOrtStatus *COnnxRuntime_createCpuMemoryInfo(const void *api, UtterOrtMemoryInfo **out) {
    // The arena allocator (1), default memory (0): plain CPU memory.
    return CALL(api, CreateCpuMemoryInfo, UtterOrtStatus *(*)(int, int, UtterOrtMemoryInfo **), 1, 0, out);
}

void COnnxRuntime_releaseMemoryInfo(const void *api, UtterOrtMemoryInfo *info) {
    CALL(api, ReleaseMemoryInfo, void (*)(UtterOrtMemoryInfo *), info);
}

UtterOrtStatus *COnnxRuntime_createTensor(
    const void *api, const UtterOrtMemoryInfo *info, void *data, size_t byteCount, const int64_t *shape,
    size_t rank, int elementType, UtterOrtValue **out) {
    return CALL(
        api, CreateTensorWithDataAsOrtValue,
        UtterOrtStatus *(*)(const UtterOrtMemoryInfo *, void *, size_t, const int64_t *, size_t, int, UtterOrtValue **),
        info, data, byteCount, shape, rank, elementType, out);
}

void COnnxRuntime_releaseValue(const void *api, UtterOrtValue *value) {
    CALL(api, ReleaseValue, void (*)(UtterOrtValue *), value);
}

UtterOrtStatus *COnnxRuntime_tensorData(const void *api, UtterOrtValue *value, void **out) {
    return CALL(api, GetTensorMutableData, UtterOrtStatus *(*)(UtterOrtValue *, void **), value, out);
}

UtterOrtStatus *COnnxRuntime_tensorInfo(const void *api, const UtterOrtValue *value, UtterOrtTensorInfo **out) {
    return CALL(
        api, GetTensorTypeAndShape, UtterOrtStatus *(*)(const UtterOrtValue *, UtterOrtTensorInfo **), value, out);
}

UtterOrtStatus *COnnxRuntime_elementCount(const void *api, const UtterOrtTensorInfo *info, size_t *out) {
    return CALL(api, GetTensorShapeElementCount, UtterOrtStatus *(*)(const UtterOrtTensorInfo *, size_t *), info, out);
}

UtterOrtStatus *COnnxRuntime_elementType(const void *api, const UtterOrtTensorInfo *info, int *out) {
    return CALL(api, GetTensorElementType, UtterOrtStatus *(*)(const UtterOrtTensorInfo *, int *), info, out);
}

void COnnxRuntime_releaseTensorInfo(const void *api, UtterOrtTensorInfo *info) {
    CALL(api, ReleaseTensorTypeAndShapeInfo, void (*)(UtterOrtTensorInfo *), info);
}

UtterOrtStatus *COnnxRuntime_run(
    const void *api, UtterOrtSession *session, const UtterOrtRunOptions *options, const char *const *inputNames,
    const UtterOrtValue *const *inputs, size_t inputCount, const char *const *outputNames, size_t outputCount,
    UtterOrtValue **outputs) {
    return CALL(
        api, Run,
        UtterOrtStatus *(*)(UtterOrtSession *, const UtterOrtRunOptions *, const char *const *,
                            const UtterOrtValue *const *, size_t, const char *const *, size_t, UtterOrtValue **),
        session, options, inputNames, inputs, inputCount, outputNames, outputCount, outputs);
}
