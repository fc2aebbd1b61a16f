import CSndFile

/// How long a sound file plays, from its header.
public enum SoundFileLength {
    /// Seconds of audio in the file at `path`.
    public static func seconds(of path: String) throws(SoundFileError) -> Double {
        var info = SF_INFO()
        let file: OpaquePointer
        do {
            file = try openSoundFile(path: path, mode: Int32(SFM_READ), info: &info)
        } catch {
            throw SoundFileError(path: path, reason: error.reason)
        }
        sf_close(file)
        return info.samplerate > 0 ? Double(info.frames) / Double(info.samplerate) : 0
    }
}
