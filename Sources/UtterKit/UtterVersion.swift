/// Utter's version, the one `utter --version` and `sd_utter --version` print. The Debian changelog
/// (packaging/debian/changelog) must name the same one; a test checks it.
public enum UtterVersion {
    public static let current = "0.1.0"
}
