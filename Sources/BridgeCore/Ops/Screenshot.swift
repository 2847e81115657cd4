import PropStore

extension Ops {
    /// `screenshot {scale?}` → `{width, height, scale, png}`: the session's window drawn as the phone shows it
    /// (``ScreenPainter``), a PNG of `width × height` pixels (the window's points times `scale`, by default the
    /// window's), in base64.
    ///
    /// It needs the session's layout on (`layout`), and draws the frames of the last layout pass with the views'
    /// props as they are. Nothing is drawn for a session that never asks: the op reads the tree and changes nothing.
    /// A picture over ``ScreenPainter/maxPixels`` is `limit_exceeded`; so is an answer over
    /// `--max-request-output-bytes` (as for any op; a screen of 390×844 points at scale 3 is 3 million pixels, its
    /// PNG a few hundred kilobytes at most for a real screen, a third more in base64).
    ///
    /// With `session` (another session's id, as `observe` takes it; the DevTools page's picture) it draws that
    /// session's window instead, answered by the connection (``Engine/screenshot(_:scale:frames:into:)``). With
    /// `frames: true` the answer also lists every laid-out view's frame in the window, `[[tag, x, y, width, height]]`
    /// by tag (``ShadowTree/frameInWindow(of:)``, what `inspect`'s `layoutInWindow` says): where to outline a view on
    /// the picture.
    enum Screenshot: Op {
        static let entry = OpTable.Entry(
            "screenshot",
            batch: .refused("batch: screenshot cannot be part of a batch"),
            outputIsUnbounded: true
        )
        static let spec = OpSpec(
            fields: #"{"scale?":"number","frames?":"boolean","session?":"string"}"#,
            sample: #"{"op":"screenshot","scale":1,"frames":true}"#,
            result: #"""
                {"$name":"ScreenshotWire","width":"integer","height":"integer","scale":"number","png":"string",
                "frames?":[["number"]]}
                """#,
            safeToRepeat: true,
            needsLayout: true
        )

        /// The largest `scale` asked for.
        static let maxScale = 8.0

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let request = context.request
            var scale: Double?
            if let value = request.json[field: "scale"], !value.isNull {
                let number: Double
                switch value.kind {
                case .integer: number = Double(value.integerValue)
                case .real: number = value.realValue
                default:
                    throw BridgeError(.badRequest, "screenshot: 'scale' must be a number, got \(value.compactText)")
                }
                guard number.isFinite, number > 0, number <= maxScale else {
                    throw BridgeError(
                        .badRequest,
                        "screenshot: 'scale' must be above 0 and at most \(Int(maxScale)), got \(value.compactText)"
                    )
                }
                scale = number
            }
            let frames = try request.optionalBool("frames") ?? false
            // Another session's window (the DevTools page's): the connection answers, under that session's gate.
            if let session = try request.optionalString("session") {
                return .observer(.screenshot(session: session, scale: scale, frames: frames))
            }
            try write(context.session, scale: scale, frames: frames, into: &context.result)
            return nil
        }

        /// Draws `session`'s window into `w`: `{width, height, scale, png, frames?}`.
        static func write(
            _ session: Session,
            scale: Double?,
            frames: Bool,
            into w: inout JSONWriter
        ) throws(BridgeError) {
            guard let tree = session.layoutToRead() else {
                throw BridgeError(
                    .badRequest,
                    "screenshot: layout is off in this session, so nothing has a place to be drawn at; send 'layout' "
                        + "with 'yoga' (the path of React Native's ReactCommon/yoga) to turn it on"
                )
            }
            let painter = ScreenPainter(tree: tree, scale: scale ?? tree.window.scale)
            let picture = try painter.draw()
            w.raw(#"{"width":"#)
            w.int(picture.width)
            w.raw(#","height":"#)
            w.int(picture.height)
            w.raw(#","scale":"#)
            w.number(painter.scale)
            w.raw(#","png":""#)
            w.raw(PNGWriter.base64(picture.png))
            w.raw("\"")
            if frames {
                w.raw(#","frames":["#)
                var first = true
                for (view, frame) in tree.framesInWindow() {
                    if !first { w.comma() }
                    first = false
                    w.raw("[")
                    w.int(view.tag)
                    for value in [frame.x, frame.y, frame.width, frame.height] {
                        w.comma()
                        w.number(value)
                    }
                    w.raw("]")
                }
                w.raw("]")
            }
            w.raw("}")
        }
    }
}
