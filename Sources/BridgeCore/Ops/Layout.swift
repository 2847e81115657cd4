import PropStore

extension Ops {
    /// `layout {yoga?, window?}` → `{enabled, …}`: turns the session's layout on, with Yoga built from the app's own
    /// React Native sources (`yoga`, the path of its `ReactCommon/yoga`) and a window (`{width, height, scale,
    /// insets}`, points); or, once on, changes its window. With neither field it only answers what the session's
    /// layout is, and whether a C++ compiler is there to build Yoga. With `at: {x, y}` (layout on) it answers the view
    /// a touch at that point of the window reaches (``ShadowTree/hitTest(x:y:)``): `{hit: {tag, component, x, y}}`
    /// (the point in the view's own coordinates), or `{hit: null}`; with `session` too, in that session's window
    /// (another session's, as `observe` names it: the DevTools page picking a view), answered by the connection.
    ///
    /// Once on, every request that changed the tree is followed by a layout pass (``ShadowTree``): `inspect` reports
    /// a view's `layout`, and a view subscribed to `layout` gets the event when its frame changes. A session that
    /// never sends this op works, and writes, as before it existed.
    enum Layout: Op {
        static let entry = OpTable.Entry("layout", batch: .refused("batch: layout cannot be part of a batch"))
        static let spec = OpSpec(
            fields: #"""
                {"yoga?":"string","window?":{"width?":"number","height?":"number","scale?":"number",
                "fontScale?":"number","insets?":{"top?":"number","right?":"number","bottom?":"number",
                "left?":"number"}},"fonts?":{"*":"string"},"at?":{"x":"number","y":"number"},"session?":"string"}
                """#,
            sample: #"{"op":"layout","window":{"width":320,"height":480}}"#,
            result: #"""
                {"$name":"LayoutResult","$oneOf":[{"enabled":"boolean","yoga":{"hash":"string","library":"string",
                "compiled":"boolean"},"window":{"$name":"LayoutWindow","width":"number","height":"number",
                "scale":"number","fontScale":"number","insets":{"top":"number","right":"number","bottom":"number",
                "left":"number"}}},{"enabled":"boolean","compiler":"string|null","reason?":"string"},
                {"hit":{"$oneOf":[{"tag":"integer","component":"string","x":"number","y":"number"},"null"]}}]}
                """#,
            safeToRepeat: true,
            needsLayout: true
        )

        /// An iPhone 14's window, as openApp's default.
        static let defaultWindow = LayoutWindow(width: 390, height: 844, scale: 3, insets: (47, 0, 34, 0))
        /// The largest window side, in points.
        static let maxSide = 100_000.0
        /// The largest font scale (iOS's largest accessibility size is about 3.1).
        static let maxFontScale = 10.0

        static func perform(_ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let request = context.request
            let session = context.session
            if let at = try request.object("at", required: false) {
                return try hit(at, context)
            }
            if let fonts = try request.object("fonts", required: false) {
                try loadFonts(fonts, context)
            }
            let sources = try request.optionalString("yoga")
            let window = try readWindow(request, current: session.layout?.window ?? defaultWindow)
            if let sources {
                let yoga = try YogaLibrary.load(sources: sources)
                if let tree = session.layout, tree.yoga === yoga {
                    if let window { tree.resize(to: window) }
                } else {
                    let tree = ShadowTree(yoga: yoga, window: window ?? defaultWindow)
                    tree.adopt(ViewStorage.views(session: session.storageKey))
                    session.layout = tree
                    context.engine.prepareTextAside()
                }
            } else if let window {
                guard let tree = session.layout else {
                    throw BridgeError(
                        .badRequest,
                        "layout: layout is off in this session; send 'yoga' (the path of React Native's "
                            + "ReactCommon/yoga) to turn it on"
                    )
                }
                tree.resize(to: window)
            }
            write(session.layout, into: &context.result)
            return nil
        }

        /// Loads `fonts` (`{family: path}`, the files an app loaded with `expo-font`) for text measured and drawn
        /// (``TextLayout/load(family:path:)``), and has this session's texts measured anew.
        private static func loadFonts(_ fonts: JSONRef, _ context: OpContext) throws(BridgeError) {
            try fonts.forEachMember { (family: String, value: JSONRef) throws(BridgeError) in
                guard let path = value.string, path.hasPrefix("/") else {
                    throw BridgeError(
                        .badRequest,
                        "layout: 'fonts.\(family)' must be the absolute path of a font file, got \(value.compactText)"
                    )
                }
                try TextLayout.load(family: family, path: path)
            }
            guard let tree = context.session.layout else { return }
            for view in ViewStorage.views(session: context.session.storageKey) {
                let kind = ShadowTree.Kind(component: view.type.name)
                if kind == .text || kind == .textInput { tree.styleChanged(view) }
            }
        }

        /// Answers `at`: the view a touch there reaches.
        private static func hit(_ at: JSONRef, _ context: OpContext) throws(BridgeError) -> Session.Handoff? {
            let other = try context.request.optionalString("session")
            let tree = other == nil ? context.session.layoutToRead() : context.session.layout
            if other == nil && tree == nil {
                throw BridgeError(.badRequest, "layout: 'at' needs the session's layout on (send 'yoga' first)")
            }
            func coordinate(_ name: String) throws(BridgeError) -> Double {
                guard let value = at[name], value.kind == .integer || value.kind == .real else {
                    throw BridgeError(
                        .badRequest,
                        "layout: 'at.\(name)' must be a number, got \(at[name]?.compactText ?? "nothing")"
                    )
                }
                let number = value.kind == .integer ? Double(value.integerValue) : value.realValue
                guard number.isFinite else { throw BridgeError(.badRequest, "layout: 'at.\(name)' must be finite") }
                return number
            }
            let x = try coordinate("x")
            let y = try coordinate("y")
            // Another session's window (the DevTools page picking a view): the connection answers.
            if let other { return .observer(.hitTest(session: other, x: x, y: y)) }
            if let tree { writeHit(tree, x: x, y: y, into: &context.result) }
            return nil
        }

        /// `{"hit":{tag, component, x, y}}`, or `{"hit":null}`: the view a touch at (`x`, `y`) reaches.
        static func writeHit(_ tree: ShadowTree, x: Double, y: Double, into w: inout JSONWriter) {
            guard let hit = tree.hitTest(x: x, y: y) else {
                w.raw(#"{"hit":null}"#)
                return
            }
            w.raw(#"{"hit":{"tag":"#)
            w.int(hit.view.tag)
            w.raw(#","component":"#)
            w.string(hit.view.type.name)
            w.raw(#","x":"#)
            w.number(hit.x)
            w.raw(#","y":"#)
            w.number(hit.y)
            w.raw("}}")
        }

        /// The request's `window`, over `current`; nil when it has none.
        private static func readWindow(_ request: Request, current: LayoutWindow) throws(BridgeError) -> LayoutWindow? {
            guard let json = try request.object("window", required: false) else { return nil }
            var window = current
            func number(_ value: JSONRef?, _ name: String, positive: Bool) throws(BridgeError) -> Double? {
                guard let value, !value.isNull else { return nil }
                let number: Double
                switch value.kind {
                case .integer: number = Double(value.integerValue)
                case .real: number = value.realValue
                default:
                    throw BridgeError(
                        .badRequest,
                        "layout: 'window.\(name)' must be a number, got \(value.compactText)"
                    )
                }
                guard number.isFinite, positive ? number > 0 : number >= 0, number <= maxSide else {
                    throw BridgeError(
                        .badRequest,
                        "layout: 'window.\(name)' must be \(positive ? "above" : "at least") 0 and at most "
                            + "\(Int(maxSide)), got \(value.compactText)"
                    )
                }
                return number
            }
            if let width = try number(json["width"], "width", positive: true) { window.width = width }
            if let height = try number(json["height"], "height", positive: true) { window.height = height }
            if let scale = try number(json["scale"], "scale", positive: true) { window.scale = scale }
            if let fontScale = try number(json["fontScale"], "fontScale", positive: true) {
                guard fontScale <= maxFontScale else {
                    throw BridgeError(
                        .badRequest,
                        "layout: 'window.fontScale' must be above 0 and at most \(Int(maxFontScale)), got \(fontScale)"
                    )
                }
                window.fontScale = fontScale
            }
            if let insets = json["insets"], !insets.isNull {
                guard insets.isObject else {
                    throw BridgeError(
                        .badRequest,
                        "layout: 'window.insets' must be an object, got \(insets.compactText)"
                    )
                }
                if let top = try number(insets["top"], "insets.top", positive: false) { window.insets.top = top }
                if let right = try number(insets["right"], "insets.right", positive: false) {
                    window.insets.right = right
                }
                if let bottom = try number(insets["bottom"], "insets.bottom", positive: false) {
                    window.insets.bottom = bottom
                }
                if let left = try number(insets["left"], "insets.left", positive: false) { window.insets.left = left }
            }
            return window
        }

        /// `{"enabled":true,"yoga":{…},"window":{…}}`, or `{"enabled":false,"compiler":…}`.
        private static func write(_ tree: ShadowTree?, into w: inout JSONWriter) {
            guard let tree else {
                w.raw(#"{"enabled":false,"compiler":"#)
                do throws(BridgeError) {
                    w.string(try YogaLibrary.findCompiler())
                } catch {
                    w.raw(#"null,"reason":"#)
                    w.string(error.message)
                }
                w.raw("}")
                return
            }
            w.raw(#"{"enabled":true,"yoga":{"hash":"#)
            w.string(tree.yoga.hash)
            w.raw(#","library":"#)
            w.string(tree.yoga.path)
            w.raw(#","compiled":"#)
            w.bool(tree.yoga.compiled)
            w.raw(#"},"window":{"width":"#)
            w.number(tree.window.width)
            w.raw(#","height":"#)
            w.number(tree.window.height)
            w.raw(#","scale":"#)
            w.number(tree.window.scale)
            w.raw(#","fontScale":"#)
            w.number(tree.window.fontScale)
            w.raw(#","insets":{"top":"#)
            w.number(tree.window.insets.top)
            w.raw(#","right":"#)
            w.number(tree.window.insets.right)
            w.raw(#","bottom":"#)
            w.number(tree.window.insets.bottom)
            w.raw(#","left":"#)
            w.number(tree.window.insets.left)
            w.raw("}}}")
        }
    }
}

extension JSONWriter {
    /// A number of points: an integer when integral (`390`), else its shortest form (`16.666666666666668`).
    mutating func number(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            int(Int(value))
        } else {
            double(value)
        }
    }

    /// `{"x":…,"y":…,"width":…,"height":…}`.
    mutating func frame(_ frame: Frame) {
        raw(#"{"x":"#)
        number(frame.x)
        raw(#","y":"#)
        number(frame.y)
        raw(#","width":"#)
        number(frame.width)
        raw(#","height":"#)
        number(frame.height)
        raw("}")
    }
}
