import Glibc

/// The machine's processors.
public enum Processors {
    /// How many are online (at least 1).
    public static var online: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
