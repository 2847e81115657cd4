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
    enum Screenshot: Op {
        static let entry = OpTable.Entry(
            "screenshot",
            batch: .refused("batch: screenshot cannot be part of a batch"),
            outputIsUnbounded: true
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
            guard let tree = context.session.layout else {
                throw BridgeError(
                    .badRequest,
                    "screenshot: layout is off in this session, so nothing has a place to be drawn at; send 'layout' "
                        + "with 'yoga' (the path of React Native's ReactCommon/yoga) to turn it on"
                )
            }
            let painter = ScreenPainter(tree: tree, scale: scale ?? tree.window.scale)
            let picture = try painter.draw()
            context.result.raw(#"{"width":"#)
            context.result.int(picture.width)
            context.result.raw(#","height":"#)
            context.result.int(picture.height)
            context.result.raw(#","scale":"#)
            context.result.number(painter.scale)
            context.result.raw(#","png":""#)
            context.result.raw(PNGWriter.base64(picture.png))
            context.result.raw(#""}"#)
            return nil
        }
    }
}
