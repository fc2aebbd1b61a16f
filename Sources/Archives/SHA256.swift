internal import CCrypto

/// SHA-256 by OpenSSL's libcrypto, for checking a model assembled from its parts.
public struct SHA256: ~Copyable {
    private let context: OpaquePointer

    public init() {
        // Allocation failure of a few hundred bytes is fatal everywhere else too.
        context = EVP_MD_CTX_new()!
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
    }

    /// The digest in lower-case hexadecimal, as `sha256sum` and pip's files write it.
    public consuming func hex() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        let digits = Array("0123456789abcdef")
        return String(digest.prefix(Int(length)).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}
