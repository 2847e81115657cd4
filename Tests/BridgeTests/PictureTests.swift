import CCairoPango
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `screenshot`: a real daemon lays a screen out with React Native's Yoga and draws it with Cairo and Pango; the
/// tests read pixels of the PNG it answers at known points.
@Suite("Screenshot: the screen as a picture", .serialized)
struct PictureTests {
    static let enabled = LayoutTests.haveSources
    static let why = Comment(rawValue: LayoutTests.noSources)

    /// A decoded picture: premultiplied ARGB pixels, as Cairo reads a PNG.
    struct Picture {
        let width: Int
        let height: Int
        let scale: Double
        let pixels: [UInt32]

        /// The colour at the point (`x`, `y`) of the window, in points: `(r, g, b, a)` unpremultiplied.
        func at(_ x: Double, _ y: Double) -> (r: Int, g: Int, b: Int, a: Int) {
            let px = min(width - 1, Int(x * scale))
            let py = min(height - 1, Int(y * scale))
            let argb = pixels[py * width + px]
            let a = Int(argb >> 24)
            func un(_ c: UInt32) -> Int { a == 0 ? 0 : min(255, Int((Double(c & 0xFF) * 255 / Double(a)).rounded())) }
            return (un(argb >> 16), un(argb >> 8), un(argb), a)
        }
    }

    /// A daemon with layout on in a window of `width`×`height` points at `scale`.
    private func start(
        width: Int = 200,
        height: Int = 200,
        scale: Int = 2
    ) throws -> (DaemonProcess, SocketClient, TemporaryDirectory) {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess(
            ["--socket", socket],
            executable: LayoutTests.binary,
            environment: ["BRIDGED_CACHE_DIR": LayoutTests.sharedCache],
            in: dir
        )
        try daemon.waitUntilListening()
        let client = try SocketClient(path: socket)
        try client.hello()
        let on = try client.request(
            ##"{"op":"layout","yoga":"\##(LayoutTests.yogaSources)","window":{"width":\##(width),"height":\##(height),"scale":\##(scale)}}"##
        )
        #expect(errorCode(on) == nil, "\(on)")
        return (daemon, client, dir)
    }

    /// Creates a white root (tag 1) and `views` under it: `(tag, component, props, parent)`.
    private func mount(_ client: SocketClient, _ views: [(Int, String, String, Int)]) throws {
        var ops = [##"{"op":"create","tag":1,"component":"RCTView","props":{"backgroundColor":"#ffffff"}}"##]
        for (tag, component, props, parent) in views {
            ops.append(
                ##"{"op":"create","tag":\##(tag),"component":"\##(component)","props":\##(props),"parent":\##(parent)}"##
            )
        }
        let answer = try client.request(#"{"op":"batch","ops":["# + ops.joined(separator: ",") + "]}")
        #expect(errorCode(answer) == nil, "\(answer)")
    }

    private func screenshot(_ client: SocketClient, in dir: TemporaryDirectory, _ extra: String = "") throws -> Picture
    {
        let frame = try client.request(##"{"op":"screenshot"\##(extra)}"##)
        let result = try #require(object(frame)["result"] as? [String: Any], "\(frame.prefix(300))")
        let base64 = try #require(result["png"] as? String)
        let data = try #require(Data(base64Encoded: base64))
        let path = dir.file("shot.png")
        try data.write(to: URL(fileURLWithPath: path))
        let surface = try #require(cairo_image_surface_create_from_png(path))
        defer { cairo_surface_destroy(surface) }
        #expect(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        #expect(result["width"] as? Int == width && result["height"] as? Int == height)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let bytes = try #require(cairo_image_surface_get_data(surface))
        var pixels = [UInt32](repeating: 0, count: width * height)
        for row in 0..<height {
            let line = UnsafeRawPointer(bytes + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width { pixels[row * width + column] = line[column] }
        }
        let scale = (result["scale"] as? NSNumber)?.doubleValue ?? 1
        return Picture(width: width, height: height, scale: scale, pixels: pixels)
    }

    private func near(_ got: (r: Int, g: Int, b: Int, a: Int), _ want: (Int, Int, Int), within: Int = 2) -> Bool {
        abs(got.r - want.0) <= within && abs(got.g - want.1) <= within && abs(got.b - want.2) <= within
            && got.a == 255
    }

    @Test(.enabled(if: enabled, why))
    func aPictureIsTheWindowTimesItsScaleWithAViewWhereItsFrameIs() throws {
        let (daemon, client, dir) = try start()
        try mount(
            client,
            [
                (
                    2, "RCTView",
                    ##"{"position":"absolute","left":20,"top":40,"width":100,"height":100,"backgroundColor":"#ff0000"}"##,
                    1
                )
            ]
        )
        let picture = try screenshot(client, in: dir)
        #expect(picture.width == 400 && picture.height == 400 && picture.scale == 2)
        #expect(near(picture.at(30, 50), (255, 0, 0)), "\(picture.at(30, 50))")
        #expect(near(picture.at(119.5, 139.5), (255, 0, 0)))
        #expect(near(picture.at(19, 39), (255, 255, 255)))
        #expect(near(picture.at(121, 141), (255, 255, 255)))
        // Another scale asked for: another size.
        let small = try screenshot(client, in: dir, ##","scale":1"##)
        #expect(small.width == 200 && small.height == 200)
        #expect(near(small.at(30, 50), (255, 0, 0)))
        _ = daemon
    }

    /// The DevTools page's picture of a session: another connection asks for that session's window (`screenshot`
    /// with `session`, and `frames`: where each view is in the window) and for the view a touch at a point reaches
    /// (`layout` with `session` and `at`); the same picture and the same hit-test as the session's own.
    @Test(.enabled(if: enabled, why))
    func anotherSessionsWindowIsDrawnAndHitTestedWithItsFrames() throws {
        let (daemon, client, dir) = try start()
        try mount(
            client,
            [
                (
                    2, "RCTView",
                    ##"{"position":"absolute","left":20,"top":40,"width":100,"height":100,"backgroundColor":"#ff0000"}"##,
                    1
                ),
                (3, "RCTView", ##"{"marginLeft":10,"marginTop":5,"width":30,"height":20,"pointerEvents":"none"}"##, 2),
            ]
        )
        let own = try #require(
            object(try client.request(#"{"op":"screenshot","frames":true}"#))["result"] as? [String: Any]
        )
        let observer = try SocketClient(path: dir.file("bridged.sock"))
        let me = try observer.hello()
        let listed = object(try observer.request(#"{"op":"sessions"}"#))["result"] as? [String: Any]
        let sessions = try #require(listed?["sessions"] as? [[String: Any]]).compactMap { $0["session"] as? String }
        let other = try #require(sessions.first { $0 != me.id })

        let frame = try observer.request(##"{"op":"screenshot","session":"\##(other)","frames":true}"##)
        let theirs = try #require(object(frame)["result"] as? [String: Any], "\(frame.prefix(300))")
        #expect(theirs["png"] as? String == own["png"] as? String)
        #expect(theirs["width"] as? Int == 400 && theirs["height"] as? Int == 400)
        let frames = try #require(theirs["frames"] as? [[Int]])
        #expect(frames == [[1, 0, 0, 200, 200], [2, 20, 40, 100, 100], [3, 30, 45, 30, 20]])
        #expect(own["frames"] as? [[Int]] == frames)
        // Without `frames`, none.
        let plain = object(try observer.request(##"{"op":"screenshot","session":"\##(other)","scale":1}"##))
        let plainResult = try #require(plain["result"] as? [String: Any])
        #expect(plainResult["frames"] == nil && plainResult["width"] as? Int == 200)

        func hit(_ x: Double, _ y: Double) throws -> [String: Any]? {
            let answer = try observer.request(##"{"op":"layout","session":"\##(other)","at":{"x":\##(x),"y":\##(y)}}"##)
            return (object(answer)["result"] as? [String: Any])?["hit"] as? [String: Any]
        }
        #expect(try hit(25, 45)?["tag"] as? Int == 2)
        // The view with pointerEvents none takes no touch: its parent does, as for the session's own touches.
        #expect(try hit(35, 50)?["tag"] as? Int == 2)
        #expect(try hit(5, 5)?["tag"] as? Int == 1)

        // No such session; a session with layout off.
        #expect(errorCode(try observer.request(#"{"op":"screenshot","session":"s999-0"}"#)) == "unknown_session")
        #expect(
            errorCode(try observer.request(#"{"op":"layout","session":"s999-0","at":{"x":1,"y":1}}"#))
                == "unknown_session"
        )
        #expect(errorCode(try observer.request(##"{"op":"screenshot","session":"\##(me.id)"}"##)) == "bad_request")
        #expect(
            errorCode(try observer.request(##"{"op":"layout","session":"\##(me.id)","at":{"x":1,"y":1}}"##))
                == "bad_request"
        )
        _ = daemon
    }

    @Test(.enabled(if: enabled, why))
    func bordersHaveTheirSidesWidthsAndColours() throws {
        let (daemon, client, dir) = try start()
        try mount(
            client,
            [
                (
                    2, "RCTView",
                    ##"{"position":"absolute","left":10,"top":10,"width":100,"height":60,"backgroundColor":"#00ff00","borderWidth":4,"borderColor":"#0000ff","borderTopWidth":10,"borderTopColor":"#ff0000"}"##,
                    1
                ),
                (
                    3, "RCTView",
                    ##"{"position":"absolute","left":10,"top":100,"width":80,"height":80,"backgroundColor":"#ff0000","borderRadius":40}"##,
                    1
                ),
                (
                    4, "RCTView",
                    ##"{"position":"absolute","left":120,"top":100,"width":60,"height":60,"borderTopWidth":20,"borderTopColor":"#ff0000","borderLeftWidth":20,"borderLeftColor":"#0000ff"}"##,
                    1
                ),
            ]
        )
        let picture = try screenshot(client, in: dir)
        #expect(near(picture.at(50, 14), (255, 0, 0)), "top side: \(picture.at(50, 14))")
        #expect(near(picture.at(12, 40), (0, 0, 255)), "left side: \(picture.at(12, 40))")
        #expect(near(picture.at(108, 40), (0, 0, 255)), "right side")
        #expect(near(picture.at(50, 68), (0, 0, 255)), "bottom side")
        #expect(near(picture.at(50, 40), (0, 255, 0)), "inside: \(picture.at(50, 40))")
        // A circle: its centre red, its bounding box's corner white.
        #expect(near(picture.at(50, 140), (255, 0, 0)))
        #expect(near(picture.at(12, 102), (255, 255, 255)), "\(picture.at(12, 102))")
        // Two sides' colours meet on the corner's diagonal.
        #expect(near(picture.at(135, 103), (255, 0, 0)), "above the diagonal: \(picture.at(135, 103))")
        #expect(near(picture.at(123, 115), (0, 0, 255)), "below it: \(picture.at(123, 115))")
        _ = daemon
    }

    @Test(.enabled(if: enabled, why))
    func opacityBlendsAndOverflowHiddenClipsAndLaterSiblingsAndZIndexAreAbove() throws {
        let (daemon, client, dir) = try start()
        try mount(
            client,
            [
                (
                    2, "RCTView",
                    ##"{"position":"absolute","left":0,"top":0,"width":50,"height":50,"backgroundColor":"#ff0000","opacity":0.5}"##,
                    1
                ),
                (
                    3, "RCTView",
                    ##"{"position":"absolute","left":100,"top":0,"width":50,"height":50,"overflow":"hidden"}"##, 1
                ),
                (4, "RCTView", ##"{"width":100,"height":100,"backgroundColor":"#00ff00"}"##, 3),
                (
                    5, "RCTView",
                    ##"{"position":"absolute","left":0,"top":100,"width":50,"height":50,"backgroundColor":"#ff0000"}"##,
                    1
                ),
                (
                    6, "RCTView",
                    ##"{"position":"absolute","left":25,"top":100,"width":50,"height":50,"backgroundColor":"#0000ff"}"##,
                    1
                ),
                (
                    7, "RCTView",
                    ##"{"position":"absolute","left":100,"top":100,"width":50,"height":50,"backgroundColor":"#ff0000","zIndex":1}"##,
                    1
                ),
                (
                    8, "RCTView",
                    ##"{"position":"absolute","left":125,"top":100,"width":50,"height":50,"backgroundColor":"#0000ff"}"##,
                    1
                ),
            ]
        )
        let picture = try screenshot(client, in: dir)
        #expect(near(picture.at(25, 25), (255, 128, 128)), "half-transparent red on white: \(picture.at(25, 25))")
        #expect(near(picture.at(125, 25), (0, 255, 0)))
        #expect(near(picture.at(175, 25), (255, 255, 255)), "the clipped part: \(picture.at(175, 25))")
        #expect(near(picture.at(35, 125), (0, 0, 255)), "the later sibling is above")
        #expect(near(picture.at(135, 125), (255, 0, 0)), "zIndex 1 is above the later sibling")
        _ = daemon
    }

    @Test(.enabled(if: enabled, why))
    func transformsMoveScaleAndRotateAboutTheCentre() throws {
        let (daemon, client, dir) = try start()
        try mount(
            client,
            [
                (
                    2, "RCTView",
                    ##"{"position":"absolute","left":0,"top":0,"width":40,"height":40,"backgroundColor":"#ff0000","transform":[{"translateX":100},{"translateY":20}]}"##,
                    1
                ),
                (
                    3, "RCTView",
                    ##"{"position":"absolute","left":40,"top":120,"width":40,"height":40,"backgroundColor":"#0000ff","transform":[{"scale":2}]}"##,
                    1
                ),
                (
                    4, "RCTView",
                    ##"{"position":"absolute","left":140,"top":140,"width":40,"height":40,"backgroundColor":"#00ff00","transform":[{"rotate":"45deg"}]}"##,
                    1
                ),
            ]
        )
        let picture = try screenshot(client, in: dir)
        #expect(near(picture.at(5, 5), (255, 255, 255)), "moved away from its frame")
        #expect(near(picture.at(105, 25), (255, 0, 0)))
        #expect(near(picture.at(25, 105), (0, 0, 255)), "scaled twice its size about its centre")
        // Rotated 45°: the frame's corner is outside, a point beyond the frame's side on the diagonal is inside.
        #expect(near(picture.at(141, 141), (255, 255, 255)), "\(picture.at(141, 141))")
        #expect(near(picture.at(160, 138), (0, 255, 0)), "\(picture.at(160, 138))")
        _ = daemon
    }

    @Test(.enabled(if: enabled, why))
    func textIsDrawnInItsFrameInItsColour() throws {
        let (daemon, client, dir) = try start()
        try mount(
            client,
            [
                (
                    2, "RCTText",
                    ##"{"position":"absolute","left":10,"top":10,"fontSize":40,"color":"#ff0000","fontWeight":"bold"}"##,
                    1
                ),
                (3, "RCTRawText", ##"{"text":"IIII"}"##, 2),
            ]
        )
        let frame = try client.request(##"{"op":"inspect","tag":2}"##)
        let layout = try #require((object(frame)["result"] as? [String: Any])?["layout"] as? [String: Any])
        let width = try #require((layout["width"] as? NSNumber)?.doubleValue)
        let height = try #require((layout["height"] as? NSNumber)?.doubleValue)
        let picture = try screenshot(client, in: dir)
        var red = 0
        var outside = 0
        for y in stride(from: 0.0, to: 200, by: 0.5) {
            for x in stride(from: 0.0, to: 200, by: 0.5) {
                let pixel = picture.at(x, y)
                let isRed = pixel.r > 200 && pixel.g < 60 && pixel.b < 60
                if isRed && x >= 10 && x < 10 + width && y >= 10 && y < 10 + height { red += 1 }
                if !near(pixel, (255, 255, 255), within: 8) && !(x >= 9 && x < 11 + width && y >= 9 && y < 11 + height)
                {
                    outside += 1
                }
            }
        }
        #expect(red > 200, "red pixels of the glyphs inside the text's frame: \(red)")
        #expect(outside == 0)
        _ = daemon
    }

    /// A one-line field's text (here its placeholder) is aligned in its box as UITextField aligns it.
    @Test(
        .enabled(if: enabled, why),
        arguments: [("left", 0.0, 100.0), ("center", 50.0, 150.0), ("right", 100.0, 200.0)]
    )
    func aFieldsPlaceholderIsAlignedInItsBox(_ align: String, _ from: Double, _ to: Double) throws {
        let (daemon, client, dir) = try start()
        let field =
            ##"{"position":"absolute","left":0,"top":0,"width":200,"height":40,"textAlign":"\##(align)","##
            + ##""placeholder":"II","placeholderTextColor":"#ff0000","fontSize":20}"##
        try mount(client, [(2, "RCTSinglelineTextInputView", field, 1)])
        let picture = try screenshot(client, in: dir)
        var xs: [Double] = []
        for y in stride(from: 0.0, to: 40, by: 0.5) {
            for x in stride(from: 0.0, to: 200, by: 0.5) {
                let pixel = picture.at(x, y)
                if pixel.r > 200 && pixel.g < 80 && pixel.b < 80 { xs.append(x) }
            }
        }
        let left = try #require(xs.min())
        let right = try #require(xs.max())
        #expect(left >= from && right < to, "\(align): the placeholder's red pixels span \(left)...\(right)")
        _ = daemon
    }

    @Test(.enabled(if: enabled, why))
    func aLocalPNGIsDrawnByItsResizeMode() throws {
        let (daemon, client, dir) = try start()
        // A 4×2 PNG: its left half red, its right half blue.
        let image = dir.file("two colours.png")
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 4, 2)!
        let cairo = cairo_create(surface)!
        cairo_set_source_rgb(cairo, 1, 0, 0)
        cairo_rectangle(cairo, 0, 0, 2, 2)
        cairo_fill(cairo)
        cairo_set_source_rgb(cairo, 0, 0, 1)
        cairo_rectangle(cairo, 2, 0, 2, 2)
        cairo_fill(cairo)
        cairo_destroy(cairo)
        #expect(cairo_surface_write_to_png(surface, image) == CAIRO_STATUS_SUCCESS)
        cairo_surface_destroy(surface)
        let uri = "file://" + image.replacingOccurrences(of: " ", with: "%20")
        // A damaged file (a JPEG's start alone) draws nothing, as an image still loading.
        let notPNG = dir.file("photo.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0, 1]).write(to: URL(fileURLWithPath: notPNG))
        // A 16×8 JPEG (libjpeg, quality 100, no chroma subsampling): its left half red, its right half blue.
        let jpeg = dir.file("two colours.jpg")
        let jpegBytes = try #require(Data(base64Encoded: Self.twoColoursJPEG))
        try jpegBytes.write(to: URL(fileURLWithPath: jpeg))
        let jpegURI = "file://" + jpeg.replacingOccurrences(of: " ", with: "%20")
        try mount(
            client,
            [
                (
                    2, "RCTImageView",
                    ##"{"position":"absolute","left":0,"top":0,"width":80,"height":40,"resizeMode":"stretch","source":[{"uri":"\##(uri)"}]}"##,
                    1
                ),
                (
                    3, "RCTImageView",
                    ##"{"position":"absolute","left":0,"top":100,"width":80,"height":80,"resizeMode":"contain","source":[{"uri":"\##(uri)"}]}"##,
                    1
                ),
                (
                    4, "RCTImageView",
                    ##"{"position":"absolute","left":100,"top":0,"width":40,"height":40,"source":{"uri":"file://\##(notPNG)"}}"##,
                    1
                ),
                (
                    5, "RCTImageView",
                    ##"{"position":"absolute","left":100,"top":150,"width":80,"height":40,"resizeMode":"stretch","source":[{"uri":"\##(jpegURI)"}]}"##,
                    1
                ),
            ]
        )
        let picture = try screenshot(client, in: dir)
        #expect(near(picture.at(10, 20), (255, 0, 0), within: 4), "\(picture.at(10, 20))")
        #expect(near(picture.at(70, 20), (0, 0, 255), within: 4))
        // Contained: 80×40 in the middle of 80×80, white above.
        #expect(near(picture.at(40, 110), (255, 255, 255)))
        #expect(near(picture.at(10, 140), (255, 0, 0), within: 4))
        #expect(near(picture.at(120, 20), (255, 255, 255)), "the damaged JPEG draws nothing")
        #expect(near(picture.at(115, 170), (255, 0, 0), within: 8), "the JPEG's left half: \(picture.at(115, 170))")
        #expect(near(picture.at(165, 170), (0, 0, 255), within: 8), "the JPEG's right half: \(picture.at(165, 170))")
        _ = daemon
    }

    /// A 16×8 JPEG written by libjpeg: its left 8 columns red, its right 8 blue.
    static let twoColoursJPEG = [
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB",
        "AQEBAQEBAQEBAQEBAQEBAQH/2wBDAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB",
        "AQEBAQEBAQEBAQEBAQH/wAARCAAIABADAREAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAA",
        "AgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6",
        "Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXG",
        "x8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREA",
        "AgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5",
        "OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPE",
        "xcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD8X6/ynP8Av4PyHr/1UD/zXz//2Q==",
    ].joined()

    @Test(.enabled(if: enabled, why))
    func aPresentedModalIsDrawnAboveTheScreen() throws {
        let (daemon, client, dir) = try start()
        try mount(
            client,
            [
                (2, "RCTView", ##"{"flex":1,"backgroundColor":"#ff0000"}"##, 1),
                (3, "RCTModalHostView", ##"{"visible":true,"transparent":true}"##, 2),
                // The modal's content has the window's size, as RCTModalHostShadowView gives it.
                (4, "RCTView", ##"{}"##, 3),
                (5, "RCTView", ##"{"width":50,"height":50,"backgroundColor":"#0000ff"}"##, 4),
            ]
        )
        let picture = try screenshot(client, in: dir)
        #expect(near(picture.at(100, 100), (255, 0, 0)))
        #expect(near(picture.at(10, 10), (0, 0, 255)), "\(picture.at(10, 10))")
        _ = daemon
    }

    @Test(.enabled(if: enabled, why))
    func aTextWithNoColourIsBlackAndASwitchIsDrawnAsIOSDrawsIt() throws {
        let (daemon, client, dir) = try start()
        try mount(
            client,
            [
                (2, "RCTText", ##"{"position":"absolute","left":10,"top":10,"fontSize":40}"##, 1),
                (3, "RCTRawText", ##"{"text":"IIII"}"##, 2),
                (
                    4, "RCTSwitch",
                    ##"{"position":"absolute","left":10,"top":100,"width":51,"height":31,"value":true}"##, 1
                ),
                (5, "RCTSwitch", ##"{"position":"absolute","left":100,"top":100,"width":51,"height":31}"##, 1),
            ]
        )
        let picture = try screenshot(client, in: dir)
        var black = 0
        for y in stride(from: 10.0, to: 60, by: 0.5) {
            for x in stride(from: 10.0, to: 100, by: 0.5) where near(picture.at(x, y), (0, 0, 0), within: 30) {
                black += 1
            }
        }
        #expect(black > 200, "black glyph pixels: \(black)")
        #expect(near(picture.at(14, 115), (0x34, 0xC7, 0x59)), "on: green at its left: \(picture.at(14, 115))")
        #expect(near(picture.at(46, 115), (255, 255, 255)), "on: the thumb at its right")
        #expect(near(picture.at(147, 115), (0xE9, 0xE9, 0xEA)), "off: grey at its right: \(picture.at(147, 115))")
        _ = daemon
    }

    @Test(.enabled(if: enabled, why))
    func aTextThatAllowsFontScalingIsMeasuredLargerWithTheWindowsFontScale() throws {
        let (daemon, client, _) = try start()
        try mount(
            client,
            [
                (2, "RCTText", ##"{"position":"absolute","fontSize":17}"##, 1),
                (3, "RCTRawText", ##"{"text":"Hello"}"##, 2),
                (4, "RCTText", ##"{"position":"absolute","top":50,"fontSize":17,"allowFontScaling":false}"##, 1),
                (5, "RCTRawText", ##"{"text":"Hello"}"##, 4),
            ]
        )
        func size(_ tag: Int) throws -> (Double, Double) {
            let frame = try client.request(##"{"op":"inspect","tag":\##(tag)}"##)
            let layout = try #require((object(frame)["result"] as? [String: Any])?["layout"] as? [String: Any])
            return ((layout["width"] as? NSNumber)?.doubleValue ?? 0, (layout["height"] as? NSNumber)?.doubleValue ?? 0)
        }
        let before = try size(2)
        #expect(abs(before.0 - 41) < 0.5 && abs(before.1 - 20.67) < 0.5, "\(before)")
        let answer = try client.request(##"{"op":"layout","window":{"fontScale":2}}"##)
        #expect(((object(answer)["result"] as? [String: Any])?["window"] as? [String: Any])?["fontScale"] as? Int == 2)
        let after = try size(2)
        #expect(abs(after.0 - 81.5) < 1 && abs(after.1 - 41.2) < 1, "twice the size: \(after)")
        #expect(try size(4) == before, "allowFontScaling false keeps its size")
        #expect(errorCode(try client.request(##"{"op":"layout","window":{"fontScale":0}}"##)) == "bad_request")
        _ = daemon
    }

    @Test(.enabled(if: enabled && FileManager.default.fileExists(atPath: PictureTests.monoFont), why))
    func aFontTheAppLoadsIsUsedByTheNameItLoadedItUnder() throws {
        let (daemon, client, dir) = try start()
        try mount(
            client,
            [
                (2, "RCTText", ##"{"position":"absolute","fontSize":17,"fontFamily":"AppMono"}"##, 1),
                (3, "RCTRawText", ##"{"text":"Hello"}"##, 2),
            ]
        )
        func width() throws -> Double {
            let frame = try client.request(##"{"op":"inspect","tag":2}"##)
            let layout = try #require((object(frame)["result"] as? [String: Any])?["layout"] as? [String: Any])
            return (layout["width"] as? NSNumber)?.doubleValue ?? 0
        }
        // Not loaded yet: Inter.
        #expect(abs(try width() - 41) < 0.5)
        let loaded = try client.request(##"{"op":"layout","fonts":{"AppMono":"\##(Self.monoFont)"}}"##)
        #expect(errorCode(loaded) == nil, "\(loaded)")
        // DejaVu Sans Mono's 17-point Hello, 51.18 points, ceiled to the pixel grid.
        let mono = try width()
        #expect(abs(mono - 51.5) < 0.5, "\(mono)")
        let missing = try client.request(##"{"op":"layout","fonts":{"Other":"\##(dir.file("none.ttf"))"}}"##)
        #expect(errorCode(missing) == "bad_request")
        #expect(errorCode(try client.request(##"{"op":"layout","fonts":{"Other":"relative.ttf"}}"##)) == "bad_request")
        _ = daemon
    }

    static let monoFont = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

    @Test func withLayoutOffOrAWrongScaleTheErrorSaysWhy() throws {
        let dir = TemporaryDirectory()
        let socket = dir.file("bridged.sock")
        let daemon = try DaemonProcess(["--socket", socket], executable: LayoutTests.binary, in: dir)
        try daemon.waitUntilListening()
        let client = try SocketClient(path: socket)
        try client.hello()
        let off = try client.request(##"{"op":"screenshot"}"##)
        #expect(errorCode(off) == "bad_request")
        #expect((object(off)["error"] as? [String: Any])?["message"] as? String ?? "" ~= "layout is off")
        #expect(errorCode(try client.request(##"{"op":"screenshot","scale":0}"##)) == "bad_request")
        #expect(errorCode(try client.request(##"{"op":"screenshot","scale":"2"}"##)) == "bad_request")
        #expect(errorCode(try client.request(##"{"op":"batch","ops":[{"op":"screenshot"}]}"##)) == "batch_failed")
        _ = daemon
    }
}

private func ~= (text: String, part: String) -> Bool { text.contains(part) }
