internal import CALSA
import AudioStream

/// An open ALSA playback PCM set up for interleaved 16-bit mono; closing it happens once, on deinit.
///
/// The device is opened and closed off the render thread (by the synth thread or at shutdown); the
/// render thread only writes to it, through the handle and the period buffer allocated here.
public struct PCMDevice: ~Copyable {
    let handle: OpaquePointer
    /// The configuration tree the PCM was opened from, kept alive as long as the PCM.
    private let configTree: OpaquePointer?
    /// One period of samples, allocated at open so the render thread never allocates.
    let periodBuffer: UnsafeMutablePointer<Int16>
    /// The last buffer of samples handed to the device, to fade out from on STOP.
    let history: HistoryRing
    /// Set by the synth thread when it installs the device: which one it is, to the render thread
    /// that reports it broken.
    var serial: UInt64 = 0

    /// The ALSA PCM name, as configured.
    public let name: String
    /// The name actually opened when the device needed alsa-lib's `plug` converter, else nil.
    public let convertingName: String?
    /// The rate the device was set to, in frames per second.
    public let sampleRate: Int
    /// The period size the device accepted, in frames.
    public let periodFrames: Int
    /// The buffer size the device accepted, in frames.
    public let bufferFrames: Int

    /// Opens and sets up the playback device that `configuration` names.
    ///
    /// The corresponding ALSA calls are `snd_pcm_open` (or `snd_pcm_open_lconf` when the
    /// configuration carries ALSA config text), `snd_pcm_hw_params` and `snd_pcm_sw_params`. A
    /// device that refuses the rate, 16-bit samples or mono (a `hw:` device, a `dmix`) is opened
    /// again through alsa-lib's `plug` converter; ``convertingName`` then names it.
    public init(configuration: AudioConfiguration) throws(ALSAError) {
        let name = configuration.deviceName
        var tree: OpaquePointer? = nil
        if let text = configuration.alsaConfigText {
            tree = try Self.loadConfig(text, for: name)
        }
        let opened: (pcm: OpaquePointer, sizes: (period: Int, buffer: Int))
        var convertingName: String? = nil
        do throws(ALSAError) {
            opened = try Self.open(name, reportedAs: name, tree: tree, configuration: configuration)
        } catch  where error.code == -EINVAL && !name.hasPrefix("plug") && !name.contains("\"") {
            let plugName = "plug:\"\(name)\""
            guard let converted = try? Self.open(plugName, reportedAs: name, tree: tree, configuration: configuration)
            else {
                if let tree { snd_config_delete(tree) }
                throw error
            }
            opened = converted
            convertingName = plugName
        } catch {
            if let tree { snd_config_delete(tree) }
            throw error
        }
        let (pcm, sizes) = opened
        self.convertingName = convertingName
        self.handle = pcm
        self.configTree = tree
        self.name = name
        self.sampleRate = configuration.sampleRate
        self.periodFrames = sizes.period
        self.bufferFrames = sizes.buffer
        self.periodBuffer = .allocate(capacity: sizes.period)
        self.periodBuffer.initialize(repeating: 0, count: sizes.period)
        let historyFrames = max(sizes.buffer, sizes.period)
        let history = UnsafeMutablePointer<Int16>.allocate(capacity: historyFrames)
        history.initialize(repeating: 0, count: historyFrames)
        self.history = HistoryRing(samples: history, frames: historyFrames)
    }

    deinit {
        // snd_pcm_close drops whatever is still queued; its result only matters for capture files.
        snd_pcm_close(handle)
        if let configTree { snd_config_delete(configTree) }
        periodBuffer.deallocate()
        history.samples.deallocate()
    }

    /// Opens `name` (errors say `reportedAs`) and sets it up; closes it again if the set-up fails.
    private static func open(
        _ name: String, reportedAs reported: String, tree: OpaquePointer?, configuration: AudioConfiguration
    ) throws(ALSAError) -> (pcm: OpaquePointer, sizes: (period: Int, buffer: Int)) {
        var pcm: OpaquePointer? = nil
        // Opened non-blocking: a hardware device another program holds then fails at once with
        // EBUSY (and the next message tries again) instead of holding the synth thread in the
        // kernel until it is free. Writes block again once it is open: they pace the render loop.
        let mode = Int32(SND_PCM_NONBLOCK)
        let opened: Int32
        if let tree {
            opened = snd_pcm_open_lconf(&pcm, name, SND_PCM_STREAM_PLAYBACK, mode, tree)
        } else {
            opened = snd_pcm_open(&pcm, name, SND_PCM_STREAM_PLAYBACK, mode)
        }
        guard opened >= 0, let pcm else {
            throw ALSAError(operation: "open the device", device: reported, code: opened < 0 ? opened : -EINVAL)
        }
        do throws(ALSAError) {
            try check(snd_pcm_nonblock(pcm, 0), "make writes blocking", on: reported)
            return (pcm, try setUp(pcm, name: reported, configuration: configuration))
        } catch {
            snd_pcm_close(pcm)
            throw error
        }
    }

    /// Parses ALSA configuration text into a new top-level tree.
    static func loadConfig(_ text: String, for name: String) throws(ALSAError) -> OpaquePointer {
        var top: OpaquePointer? = nil
        try check(snd_config_top(&top), "create a configuration tree", on: name)
        guard let top else { throw ALSAError(operation: "create a configuration tree", device: name, code: -ENOMEM) }
        var input: OpaquePointer? = nil
        let result = text.withCString { chars in
            var status = snd_input_buffer_open(&input, chars, -1)
            if status >= 0, let input {
                status = snd_config_load(top, input)
                snd_input_close(input)
            }
            return status
        }
        if result < 0 {
            snd_config_delete(top)
            throw ALSAError(operation: "parse the ALSA configuration text", device: name, code: result)
        }
        return top
    }

    /// Sets the hardware and software parameters; returns the period and buffer sizes chosen.
    private static func setUp(
        _ pcm: OpaquePointer, name: String, configuration: AudioConfiguration
    ) throws(ALSAError) -> (period: Int, buffer: Int) {
        var hw: OpaquePointer? = nil
        try check(snd_pcm_hw_params_malloc(&hw), "allocate hardware parameters", on: name)
        defer { snd_pcm_hw_params_free(hw) }
        try check(snd_pcm_hw_params_any(pcm, hw), "read the hardware parameters", on: name)
        try check(snd_pcm_hw_params_set_rate_resample(pcm, hw, 1), "enable resampling", on: name)
        try check(
            snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED),
            "select interleaved access", on: name)
        try check(snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE), "select 16-bit samples", on: name)
        try check(snd_pcm_hw_params_set_channels(pcm, hw, 1), "select mono", on: name)
        try check(
            snd_pcm_hw_params_set_rate(pcm, hw, UInt32(configuration.sampleRate), 0),
            "set the rate to \(configuration.sampleRate) Hz", on: name)
        var period = snd_pcm_uframes_t(max(configuration.periodFrames, 1))
        var direction: Int32 = 0
        try check(
            snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, &direction),
            "set the period to \(configuration.periodFrames) frames", on: name)
        var buffer = snd_pcm_uframes_t(max(configuration.bufferFrames, Int(period) * 2))
        try check(
            snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer),
            "set the buffer to \(configuration.bufferFrames) frames", on: name)
        try check(snd_pcm_hw_params(pcm, hw), "apply the hardware parameters", on: name)
        // Read back what the device settled on: "near" may round both sizes.
        try check(snd_pcm_hw_params_get_period_size(hw, &period, &direction), "read the period size", on: name)
        try check(snd_pcm_hw_params_get_buffer_size(hw, &buffer), "read the buffer size", on: name)

        var sw: OpaquePointer? = nil
        try check(snd_pcm_sw_params_malloc(&sw), "allocate software parameters", on: name)
        defer { snd_pcm_sw_params_free(sw) }
        try check(snd_pcm_sw_params_current(pcm, sw), "read the software parameters", on: name)
        // Start after one period, so a sound shorter than the buffer still starts playing.
        try check(snd_pcm_sw_params_set_start_threshold(pcm, sw, period), "set the start threshold", on: name)
        try check(snd_pcm_sw_params_set_avail_min(pcm, sw, period), "set the wake-up size", on: name)
        try check(snd_pcm_sw_params(pcm, sw), "apply the software parameters", on: name)
        return (Int(period), Int(buffer))
    }
}
