internal import CALSA

/// Whether a device opens, asked without playing and without alsa-lib's own messages on stderr
/// (a diagnostic prints its own account of the failure).
public enum DeviceProbe {
    /// Opens and sets up the device `configuration` names and closes it again; the error if it
    /// does not open.
    public static func check(_ configuration: AudioConfiguration) -> ALSAError? {
        // A thread-local handler: other threads keep alsa-lib's messages.
        let previous = snd_lib_error_set_local { _, _, _, _, _, _ in }
        defer { snd_lib_error_set_local(previous) }
        do {
            let device = try PCMDevice(configuration: configuration)
            _ = consume device
            return nil
        } catch {
            return error
        }
    }
}
