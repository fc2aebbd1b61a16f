internal import CUtterShims

/// The process's malloc heap.
public enum Heap {
    /// Gives the heap's free pages back to the system. glibc keeps memory freed in the middle of
    /// its heaps (such as a released ONNX Runtime session's, about 150 MB for a Piper voice)
    /// resident until asked; without this a released model would not lower the process's RSS.
    public static func returnFreeMemory() {
        _ = CUtterShims_trimHeap()
    }
}
