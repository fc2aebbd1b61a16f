internal import CALSA

/// A failed ALSA call: which operation, on which device, and the negative error code it returned.
public struct ALSAError: Error, CustomStringConvertible, Equatable {
    /// What Utter was doing, as a verb phrase ("open the device", "write audio").
    public let operation: String
    /// The ALSA device name, as configured.
    public let device: String
    /// The negative errno-style code ALSA returned.
    public let code: Int32

    /// Creates an error from an ALSA return code.
    public init(operation: String, device: String, code: Int32) {
        self.operation = operation
        self.device = device
        self.code = code
    }

    /// Says what failed, ALSA's own explanation, and what to try.
    public var description: String {
        "ALSA could not \(operation) on '\(device)': \(reason). \(advice)"
    }

    /// ALSA's own explanation of the code.
    public var reason: String { String(cString: snd_strerror(code)) }

    private var advice: String {
        switch -code {
        case ENOENT, ENODEV, ENXIO:
            return "Check the audio device name in utter.conf ('aplay -L' lists the devices), or use 'default'."
        case EBUSY, EAGAIN:
            return "Another program holds the device; use 'default' so the sound server mixes the streams."
        case EINVAL:
            return
                "The device rejected 16-bit mono at this rate and period; use 'default' or a 'plughw:' device, which convert."
        case EPIPE, ESTRPIPE:
            return "The device ran out of audio or was suspended; if this repeats, raise the period size in utter.conf."
        case ENOMEM:
            return "The system is out of memory."
        default:
            return "Check that the sound server is running and that 'aplay' can play to this device."
        }
    }
}

/// Returns `result`, or throws an ``ALSAError`` if it is a negative ALSA error code.
@discardableResult
func check(_ result: Int32, _ operation: String, on device: String) throws(ALSAError) -> Int32 {
    if result < 0 { throw ALSAError(operation: operation, device: device, code: result) }
    return result
}
