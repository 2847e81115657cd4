import BridgeServer
import Observation

/// How a chart draws its line: an object prop, its fields declared once.
struct ChartStyle: PropStruct {
    var color = Color.black
    var insets = EdgeInsets()
    var label: String? = nil
    init() {}

    static let fields: [Field<ChartStyle>] = [
        .required("color", \.color),
        .optional("insets", \.insets),
        .optional("label", \.label),
    ]
}

/// Props of `Chart`. Initial values are the defaults; an optional has none (`null` until set).
@Observable
final class ChartProps: ViewProps {
    var selectedIndex: Int32 = -1
    var lineWidth: Float = 1
    var points: [Point] = []
    var style = ChartStyle()
    var title: String? = nil
    init() {}
}

/// `Chart`: a line chart. `selectPoint(index, animated)` selects a point and emits a bubbling `select`.
enum Chart: Component {
    static let name = "Chart"

    static let props: [Prop<ChartProps>] = [
        .prop("selectedIndex", \.selectedIndex),
        .prop("lineWidth", \.lineWidth),
        .prop("points", \.points),
        .prop("style", \.style),
        .prop("title", \.title),
    ]

    static let events: [EventSpec] = [
        .bubbling("select", payload: [PropField("index", .int32), PropField("point", .point)])
    ]

    static let commands: [Command<ChartProps>] = [
        Command(
            "selectPoint",
            params: [CommandParam("index", .int32), CommandParam("animated", .bool)],
            emits: ["select"]
        ) { ctx in
            let index = ctx.arg(0, as: Int32.self) ?? -1
            guard index >= 0, Int(index) < ctx.props.points.count else { return }
            ctx.set(\.selectedIndex, index)
            ctx.emit("select", ["index": .int(Int(index)), "point": ctx.props.points[Int(index)].propValue])
        }
    ]

    static func render(_ props: ChartProps) -> String {
        "Chart \(props.title ?? "untitled") points=\(props.points.count) width=\(props.lineWidth)"
            + (props.selectedIndex >= 0 ? " selected=\(props.selectedIndex)" : "")
    }
}
