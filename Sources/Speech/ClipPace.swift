import RealModule

/// How fast a clip voice's clip is played, so that a phrase of clips keeps the pace of the other
/// voice kinds at the same rate.
///
/// Below the normal rate a clip is slowed by the rate alone. Above it, a clip recorded slower
/// than speech (a lone word said with care: "hello" takes 0.43 s from espeak-ng, which speaks 220
/// words a minute in a sentence) is sped up a little more with every step toward `MaximumRate`,
/// until at the top every clip speaks its words at the top pace; at the normal rate it is played
/// as recorded.
public enum ClipPace {
    /// espeak-ng's words ÷ voiced seconds against its nominal words a minute on running English
    /// text (bench/render: 220 at 175, 1,077 at 900), which the clips are matched to.
    static let engineMeasuredPace = 1.2
    /// How far a clip's own pace is corrected, at most: a phrase whose words are miscounted (a
    /// language written without spaces) is not made absurdly fast or slow.
    static let corrections = 0.5...4.0

    /// The speed for a clip of `words` words whose sound lasts `soundSeconds` between
    /// `marginSeconds` of near-silence (both ends together), in a job played `speed` times its
    /// normal pace whose top is `maximumSpeed` times it; `normalRate` is the words a minute of
    /// speed 1.
    static func speed(
        _ speed: Double, maximumSpeed: Double, normalRate: Double, words: Int, soundSeconds: Double,
        marginSeconds: Double
    ) -> Double {
        guard speed > 1, maximumSpeed > 1, words > 0, soundSeconds > 0.01 else { return speed }
        // At the top the clip lasts what its words take there: its sound shortened by the speed,
        // its margins by the speed's square (SpeedChange.clip), so the speed solves
        // sound / s + margins / s² = allowed.
        let allowed = Double(words) * 60 / (engineMeasuredPace * normalRate * maximumSpeed)
        let top =
            (soundSeconds + (soundSeconds * soundSeconds + 4 * allowed * marginSeconds).squareRoot()) / (2 * allowed)
        let correction = min(max(top / maximumSpeed, corrections.lowerBound), corrections.upperBound)
        // Geometric in the speed: none at speed 1, all of it at the top.
        let progress = min(1, Double.log(speed) / Double.log(maximumSpeed))
        return speed * Double.pow(correction, progress)
    }
}
