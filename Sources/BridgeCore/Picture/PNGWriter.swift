import CCairoPango

/// A Cairo image surface as PNG bytes, and bytes as base64 (the `png` of `screenshot`'s answer).
enum PNGWriter {
    /// The PNG of `surface`, as Cairo writes it (libpng).
    static func encode(_ surface: OpaquePointer) throws(BridgeError) -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(
                surface,
                { closure, data, length in
                    guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                    let sink = Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue()
                    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                    return CAIRO_STATUS_SUCCESS
                },
                Unmanaged.passUnretained(sink).toOpaque()
            )
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw BridgeError(.limitExceeded, "screenshot: Cairo could not write the PNG (status \(status.rawValue))")
        }
        return sink.bytes
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in base64 (RFC 4648, padded), as ASCII bytes.
    static func base64(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        let table = alphabet
        var index = 0
        let count = bytes.count
        while index + 3 <= count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(table[Int(chunk >> 18 & 63)])
            out.append(table[Int(chunk >> 12 & 63)])
            out.append(table[Int(chunk >> 6 & 63)])
            out.append(table[Int(chunk & 63)])
            index += 3
        }
        let rest = count - index
        if rest > 0 {
            var chunk = UInt32(bytes[index]) << 16
            if rest == 2 { chunk |= UInt32(bytes[index + 1]) << 8 }
            out.append(table[Int(chunk >> 18 & 63)])
            out.append(table[Int(chunk >> 12 & 63)])
            out.append(rest == 2 ? table[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return out
    }
}
