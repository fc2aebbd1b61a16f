import CSndFile

/// How long a sound file plays, from its header.
public enum SoundFileLength {
    /// Seconds of audio in the file at `path`.
    public static func seconds(of path: String) throws(SoundFileError) -> Double {
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            throw SoundFileError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        sf_close(file)
        return info.samplerate > 0 ? Double(info.frames) / Double(info.samplerate) : 0
    }
}
