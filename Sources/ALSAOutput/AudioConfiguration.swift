/// Where and how Utter plays audio: the ALSA device, the sample rate and the buffering.
public struct AudioConfiguration: Sendable, Equatable {
    /// The ALSA PCM name, such as "default" or "plughw:0".
    public var deviceName: String
    /// ALSA configuration text; when set, `deviceName` is looked up in it alone (no global config).
    public var alsaConfigText: String?
    /// The rate the producer writes at, in frames per second; ALSA resamples if the device needs it.
    public var sampleRate: Int
    /// The frames handed to the device per write; the device may pick the nearest size it supports.
    public var periodFrames: Int
    /// The device's buffer in frames; the device may pick the nearest size it supports.
    public var bufferFrames: Int
    /// The sample ring's capacity, a power of two; only read when the ``ALSASink`` is created.
    public var ringCapacity: Int

    /// Creates a configuration; the defaults suit espeak-ng (22050 Hz, 10 ms periods, 80 ms buffer).
    public init(
        deviceName: String = "default", alsaConfigText: String? = nil, sampleRate: Int = 22050,
        periodFrames: Int = 220, bufferFrames: Int = 1760, ringCapacity: Int = 1 << 17
    ) {
        self.deviceName = deviceName
        self.alsaConfigText = alsaConfigText
        self.sampleRate = sampleRate
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
        self.ringCapacity = ringCapacity
    }
}
