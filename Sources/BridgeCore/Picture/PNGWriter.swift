import CCairoPango

/// A Cairo image surface as PNG bytes, and bytes as base64 (the `png` of `screenshot`'s answer).
enum PNGWriter {
    /// The PNG of `surface` (Cairo's premultiplied ARGB32): 8-bit RGB when every pixel is opaque, else RGBA, each
    /// row filtered by PNG's `Up` filter (a row like the one above is all zeros: most of a screen) and deflated by
    /// zlib as it is made, at its fastest level with run-length matches. libpng's defaults (every filter tried per row, level 6) took three times as long
    /// for a screen at scale 3 (`bench/README.md`).
    static func encode(_ surface: OpaquePointer) throws(BridgeError) -> [UInt8] {
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let base = cairo_image_surface_get_data(surface), width > 0, height > 0 else {
            throw BridgeError(.limitExceeded, "screenshot: the picture has no pixels")
        }
        func row(_ y: Int) -> UnsafePointer<UInt32> {
            UnsafeRawPointer(base + y * stride).assumingMemoryBound(to: UInt32.self)
        }
        var opaque = true
        for y in 0..<height where opaque {
            let pixels = row(y)
            for x in 0..<width where pixels[x] >> 24 != 0xFF {
                opaque = false
                break
            }
        }
        let channels = opaque ? 3 : 4
        let lineBytes = width * channels
        var stream = z_stream()
        // Run-length matches only: a filtered screen is runs of zeros, which this deflates fastest.
        guard cp_deflate_init(&stream, 1, Z_RLE) == Z_OK else {
            throw BridgeError(.limitExceeded, "screenshot: zlib could not start deflating")
        }
        defer { deflateEnd(&stream) }
        var deflated: [UInt8] = []
        deflated.reserveCapacity(1 << 18)
        var window = [UInt8](repeating: 0, count: 1 << 17)
        var previous = [UInt8](repeating: 0, count: lineBytes)
        var current = [UInt8](repeating: 0, count: lineBytes)
        var line = [UInt8](repeating: 0, count: lineBytes + 1)
        // Filter type 2, Up: each byte minus the one above it.
        line[0] = 2
        var failed: Int32?
        for y in 0..<height {
            let pixels = row(y)
            current.withUnsafeMutableBufferPointer { out in
                var o = 0
                for x in 0..<width {
                    let argb = pixels[x]
                    let a = argb >> 24
                    var r = (argb >> 16) & 0xFF
                    var g = (argb >> 8) & 0xFF
                    var b = argb & 0xFF
                    if a != 0xFF && a != 0 {
                        // Cairo's colours are premultiplied; PNG's are not.
                        r = (r * 255 + a / 2) / a
                        g = (g * 255 + a / 2) / a
                        b = (b * 255 + a / 2) / a
                    }
                    out[o] = UInt8(truncatingIfNeeded: r)
                    out[o + 1] = UInt8(truncatingIfNeeded: g)
                    out[o + 2] = UInt8(truncatingIfNeeded: b)
                    if channels == 4 { out[o + 3] = UInt8(truncatingIfNeeded: a) }
                    o += channels
                }
            }
            line.withUnsafeMutableBufferPointer { filtered in
                previous.withUnsafeBufferPointer { above in
                    current.withUnsafeBufferPointer { here in
                        for i in 0..<lineBytes { filtered[i + 1] = here[i] &- above[i] }
                    }
                }
            }
            swap(&previous, &current)
            let last = y == height - 1
            line.withUnsafeMutableBufferPointer { input in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                window.withUnsafeMutableBufferPointer { output in
                    while true {
                        stream.next_out = output.baseAddress
                        stream.avail_out = uInt(output.count)
                        let status = deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH)
                        if status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR { failed = status }
                        deflated.append(contentsOf: output[..<(output.count - Int(stream.avail_out))])
                        if failed != nil || status == Z_STREAM_END { break }
                        if !last && stream.avail_in == 0 && stream.avail_out != 0 { break }
                    }
                }
            }
            if let failed {
                throw BridgeError(.limitExceeded, "screenshot: zlib could not deflate the picture (status \(failed))")
            }
        }
        let deflatedCount = deflated.count
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(deflatedCount + 64)
        func chunk(_ type: String, _ body: UnsafeBufferPointer<UInt8>) {
            let count = UInt32(body.count)
            png += [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
            let typeBytes = Array(type.utf8)
            png += typeBytes
            png.append(contentsOf: body)
            var crc = crc32(0, typeBytes, 4)
            crc = crc32(crc, body.baseAddress, uInt(body.count))
            png += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        }
        func big(_ value: Int) -> [UInt8] {
            [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        // IHDR: the size, 8 bits a channel, RGB (2) or RGBA (6), deflate, adaptive filtering, no interlace.
        let header = big(width) + big(height) + [8, opaque ? 2 : 6, 0, 0, 0]
        header.withUnsafeBufferPointer { chunk("IHDR", $0) }
        deflated.withUnsafeBufferPointer { chunk("IDAT", UnsafeBufferPointer(rebasing: $0[..<deflatedCount])) }
        [UInt8]().withUnsafeBufferPointer { chunk("IEND", $0) }
        return png
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
