import Observation

/// What became of an image's load, as the native side knows it.
public enum ImageLoad: Equatable, Sendable {
    case loaded(uri: String, width: Double, height: Double)
    case failed(uri: String)
}

/// Props of `RCTImageView`, plus the outcome of its last load.
@Observable
public final class ImageProps: PassThroughProps {
    /// Native state: the last load the JavaScript side reported (`loaded`, `failed`); `nil`: none yet.
    public var load: ImageLoad?
    public var passThrough: [String: PropValue] = [:]
    public init() {}
}

/// `RCTImageView`: React Native's `Image` on iOS (`ImageViewNativeComponent.js`).
///
/// The engine reads no files: the JavaScript side decides whether an image exists and tells the view, with the
/// native-input commands `loaded(uri, width, height)` (`loadStart`, `load {source: {uri, width, height}}`,
/// `loadEnd`) and `failed(uri, message)` (`loadStart`, `error {error}`, `loadEnd`).
public enum ReactNativeImage: Component, ViewConfigTable {
    public static let name = "RCTImageView"

    /// The iOS `validAttributes` of `ImageViewNativeComponent.js` (and Android's `loadingIndicatorSrc`).
    public static let props: [Prop<ImageProps>] = Prop.passThrough(fields)

    // `source` is an array of `{uri, width, height, scale, headers, …}` (or one), `defaultSource` one.
    private static let fields: [PropField] = [
        field("blurRadius", .double), field("capInsets", .edgeInsets), field("defaultSource", .mixed),
        field("internal_analyticTag", .string),
        oneOf("resizeMode", ["cover", "contain", "stretch", "repeat", "center"]),
        field("source", .mixed), field("tintColor", .color), field("loadingIndicatorSrc", .mixed),
    ]

    /// Direct, `ImageViewNativeComponent.js`'s iOS `directEventTypes`.
    public static let events: [EventSpec] = [
        .direct("loadStart", payload: []),
        .direct("progress", payload: [PropField("loaded", .double), PropField("total", .double)]),
        .direct("error", payload: [PropField("error", .string)]),
        .direct("partialLoad", payload: []),
        .direct(
            "load",
            payload: [
                PropField(
                    "source",
                    .object([PropField("uri", .string), PropField("width", .double), PropField("height", .double)])
                )
            ]
        ),
        .direct("loadEnd", payload: []),
    ]

    public static let commands: [Command<ImageProps>] = [
        Command(
            "loaded",
            params: [CommandParam("uri", .string), CommandParam("width", .double), CommandParam("height", .double)],
            emits: ["loadStart", "load", "loadEnd"]
        ) { ctx in
            let (uri, width, height) = (ctx.string(0), ctx.double(1), ctx.double(2))
            ctx.set(\.load, .loaded(uri: uri, width: width, height: height))
            ctx.emit("loadStart")
            let source: [PropMember] = [
                PropMember("uri", .string(uri)), PropMember("width", .double(width)),
                PropMember("height", .double(height)),
            ]
            ctx.emit("load", ["source": .object(source)])
            ctx.emit("loadEnd")
        },
        Command(
            "failed",
            params: [CommandParam("uri", .string), CommandParam("message", .string)],
            emits: ["loadStart", "error", "loadEnd"]
        ) { ctx in
            ctx.set(\.load, .failed(uri: ctx.string(0)))
            ctx.emit("loadStart")
            ctx.emit("error", ["error": .string(ctx.string(1))])
            ctx.emit("loadEnd")
        },
    ]

    /// The `uri` of `source` (its first element when it is an array).
    static func uri(of source: PropValue?) -> String? {
        guard case .json(let json)? = source else { return nil }
        let first: JSONValue
        switch json {
        case .array(let elements): first = elements.first ?? .null
        default: first = json
        }
        guard case .object(let members) = first,
            case .string(let uri)? = members.first(where: { $0.name == "uri" })?.value
        else { return nil }
        return uri
    }

    /// `Image "file:///…/logo.png" loaded 64x64`, `… failed` or `… loading`: the state of the last load when it
    /// was of the current `source`'s uri, else loading.
    public static func render(_ props: ImageProps) -> String {
        let source = uri(of: props.passThrough["source"])
        let shown = source.map { " \"\($0)\"" } ?? ""
        switch props.load {
        case .loaded(let uri, let width, let height)? where source == nil || source == uri:
            return "Image \"\(uri)\" loaded \(ReactNativeNumber.text(width))x\(ReactNativeNumber.text(height))"
        case .failed(let uri)? where source == nil || source == uri:
            return "Image \"\(uri)\" failed"
        default:
            return "Image\(shown) loading"
        }
    }
}
