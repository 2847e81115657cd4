import Observation

/// Props of `RCTScrollView`, plus its native scroll state.
///
/// `contentOffset` is the native offset: scrolling changes it, and React Native setting the prop moves it.
@Observable
public final class ScrollViewProps: PassThroughProps {
    public var contentOffset: Point?
    public var contentInset: EdgeInsets?
    public var scrollEnabled = true
    public var zoomScale: Double?
    /// Native state: the size of the scroll view and of its content, from the last `scroll` (`nil`: not known).
    public var layoutMeasurement: ScrollSize?
    public var contentSize: ScrollSize?
    public var passThrough: [String: PropValue] = [:]
    public init() {}
}

/// A width and a height, in points.
public struct ScrollSize: Equatable, Sendable {
    public var width: Double
    public var height: Double
}

/// `RCTScrollView`: React Native's `ScrollView` on iOS (`ScrollViewViewConfig.js`, `ScrollViewNativeComponentType.js`).
///
/// RN commands (`ScrollViewCommands.js`): `scrollTo(x, y, animated)` and `scrollToEnd(animated)` move the offset
/// and emit `scroll` (nothing when it does not move: `UIScrollView` reports no scroll then); `scrollToEnd` needs
/// the sizes a `scroll` gave (horizontal when the content is wider than the view, as `RCTScrollView` decides),
/// else it stays. `flashScrollIndicators()` and `zoomToRect(rect, animated)` change nothing headless. Native
/// input: `scroll(x, y, width, height, contentWidth, contentHeight)`, the user dragging to (x, y) in a view of
/// that size over content of that size: `scrollBeginDrag`, `scroll`, `scrollEndDrag` (not when `scrollEnabled`
/// is false); with `pagingEnabled`, `snapToOffsets` or `snapToInterval`, then `momentumScrollBegin`, `scroll` to
/// where it rests (the nearest page or snap point, when it moves; ``restingOffset(_:layout:content:)``) and
/// `momentumScrollEnd`, as the view decelerates onto it. `drag(x, y, width, height, contentWidth, contentHeight,
/// steps)` is the same drag through `steps` offsets (1 to ``maxDragSteps``), evenly spaced, the last at (x, y), a
/// `scroll` at each the offset moves to.
public enum ReactNativeScrollView: Component, ViewConfigTable {
    public static let name = "RCTScrollView"

    /// `ScrollViewViewConfig.js`'s `validAttributes`, less the event handlers (events below).
    public static let props: [Prop<ScrollViewProps>] =
        [
            .prop("contentOffset", \.contentOffset),
            .prop("contentInset", \.contentInset),
            .prop("scrollEnabled", \.scrollEnabled),
            .prop("zoomScale", \.zoomScale),
        ]
        + Prop.passThrough(
            bool(
                "alwaysBounceHorizontal",
                "alwaysBounceVertical",
                "automaticallyAdjustContentInsets",
                "automaticallyAdjustKeyboardInsets",
                "automaticallyAdjustsScrollIndicatorInsets",
                "bounces",
                "bouncesZoom",
                "canCancelContentTouches",
                "centerContent"
            )
                + [
                    oneOf("contentInsetAdjustmentBehavior", ["automatic", "scrollableAxes", "never", "always"]),
                    // `"fast"`, `"normal"` or a number.
                    field("decelerationRate", .mixed),
                ]
                + bool("directionalLockEnabled", "disableIntervalMomentum") + color("endFillColor")
                + number("fadingEdgeLength")
                + [oneOf("indicatorStyle", ["default", "black", "white"])]
                + bool("inverted", "isInvertedVirtualizedList")
                + [
                    oneOf("keyboardDismissMode", ["none", "on-drag", "interactive"]),
                    // `{minIndexForVisible, autoscrollToTopThreshold?}`.
                    field("maintainVisibleContentPosition", .mixed),
                ]
                + number("maximumZoomScale", "minimumZoomScale") + bool("nestedScrollEnabled")
                + [oneOf("overScrollMode", ["auto", "always", "never"])]
                + bool("pagingEnabled", "persistentScrollbar", "pinchGestureEnabled")
                + number("scrollEventThrottle") + [field("scrollIndicatorInsets", .edgeInsets)]
                + string("scrollPerfTag")
                + bool(
                    "scrollToOverflowEnabled",
                    "scrollsToTop",
                    "sendMomentumEvents",
                    "showsHorizontalScrollIndicator",
                    "showsVerticalScrollIndicator"
                )
                + [oneOf("snapToAlignment", ["start", "center", "end"])]
                + bool("snapToEnd") + number("snapToInterval") + [field("snapToOffsets", .array(.double))]
                + bool("snapToStart")
        )

    /// `{width, height}`.
    static let size = PropType.object([PropField("width", .double), PropField("height", .double)])

    /// The payload of every scroll event (React Native's `ScrollEvent`; also `TextInput`'s `scroll`).
    static let scrollEvent = [
        PropField("contentOffset", .point),
        PropField("contentSize", size),
        PropField("layoutMeasurement", size),
        PropField("contentInset", .edgeInsets),
        PropField("zoomScale", .double),
    ]

    /// Direct, as `RCTScrollViewManager` exports them (`RCTDirectEventBlock`); `scrollToTop` from the view config.
    public static let events: [EventSpec] = [
        "scroll", "scrollBeginDrag", "scrollEndDrag", "momentumScrollBegin", "momentumScrollEnd", "scrollToTop",
    ].map { .direct($0, payload: scrollEvent) }

    public static let commands: [Command<ScrollViewProps>] = [
        Command("flashScrollIndicators") { _ in },
        Command(
            "scrollTo",
            params: [CommandParam("x", .double), CommandParam("y", .double), CommandParam("animated", .bool)],
            emits: ["scroll"]
        ) { ctx in
            move(to: Point(x: ctx.double(0), y: ctx.double(1)), ctx)
        },
        Command("scrollToEnd", params: [CommandParam("animated", .bool)], emits: ["scroll"]) { ctx in
            guard let layout = ctx.props.layoutMeasurement, let content = ctx.props.contentSize else { return }
            var offset = ctx.props.contentOffset ?? Point()
            if content.width > layout.width {
                offset.x = content.width - layout.width
            } else {
                offset.y = max(content.height - layout.height, 0)
            }
            move(to: offset, ctx)
        },
        Command(
            "zoomToRect",
            params: [
                CommandParam(
                    "rect",
                    .object(["x", "y", "width", "height"].map { PropField($0, .double, optional: true) })
                ),
                CommandParam("animated", .bool),
            ]
        ) { _ in },
        Command(
            "scroll",
            params: dragParams,
            emits: dragEvents
        ) { ctx in drag(ctx, steps: 1, reportsStill: true) },
        Command(
            "drag",
            params: dragParams + [CommandParam("steps", .int)],
            emits: dragEvents
        ) { ctx in drag(ctx, steps: min(max(ctx.int(6), 1), maxDragSteps), reportsStill: false) },
    ]

    /// The native inputs' sizes: the offset dragged to, the view's size, the content's size.
    static let dragParams = ["x", "y", "width", "height", "contentWidth", "contentHeight"].map {
        CommandParam($0, .double)
    }
    static let dragEvents = ["scrollBeginDrag", "scroll", "scrollEndDrag", "momentumScrollBegin", "momentumScrollEnd"]
    /// The most `scroll` events one `drag` emits (more steps are taken as this many).
    public static let maxDragSteps = 100

    /// The user dragging the content to (x, y) (arguments 0 and 1) in a view and over content of the sizes given
    /// (2 to 5): `scrollBeginDrag` where the offset is, `steps` `scroll` events at offsets evenly spaced from there
    /// to (x, y), the last at (x, y), as a finger moving over that many frames, `scrollEndDrag` there; then, for a
    /// paging or snapping view, its deceleration onto where it rests. Nothing when the view is not `scrollEnabled`.
    /// A step that leaves the offset where it is reports no `scroll` (UIScrollView reports none), unless
    /// `reportsStill` (the `scroll` input's one event, which reports the offset whether or not it moved).
    private static func drag(_ ctx: CommandContext<ScrollViewProps>, steps: Int, reportsStill: Bool) {
        guard ctx.props.scrollEnabled else { return }
        let layout = ScrollSize(width: ctx.double(2), height: ctx.double(3))
        let content = ScrollSize(width: ctx.double(4), height: ctx.double(5))
        ctx.set(\.layoutMeasurement, layout)
        ctx.set(\.contentSize, content)
        ctx.emit("scrollBeginDrag", payload(ctx.props))
        let start = ctx.props.contentOffset ?? Point()
        let target = Point(x: ctx.double(0), y: ctx.double(1))
        for step in 1...steps {
            let fraction = Double(step) / Double(steps)
            let offset =
                step == steps
                ? target
                : Point(x: start.x + (target.x - start.x) * fraction, y: start.y + (target.y - start.y) * fraction)
            guard reportsStill || offset != (ctx.props.contentOffset ?? Point()) else { continue }
            ctx.set(\.contentOffset, offset)
            ctx.emit("scroll", payload(ctx.props))
        }
        ctx.emit("scrollEndDrag", payload(ctx.props))
        // A paging or snapping scroll view, let go, decelerates onto where it rests.
        guard let rest = restingOffset(ctx.props, layout: layout, content: content) else { return }
        ctx.emit("momentumScrollBegin", payload(ctx.props))
        move(to: rest, ctx)
        ctx.emit("momentumScrollEnd", payload(ctx.props))
    }

    /// Where a scroll view let go after a drag (no velocity) comes to rest, or nil when it stays where it was let
    /// go (no deceleration), along the axis the content is longer on (horizontal when wider than the view, as
    /// ``scrollToEnd`` decides), within the content. As `RCTScrollView`'s `scrollViewWillEndDragging` picks its
    /// target with no velocity: the nearest of `snapToOffsets` (the start and the end count where no offset is
    /// nearer; `snapToStart` / `snapToEnd` false leave the view free before the first / after the last), else the
    /// nearest multiple of `snapToInterval` shifted by `snapToAlignment`; with `pagingEnabled`
    /// (`UIScrollView.pagingEnabled`), the nearest multiple of the view's own length.
    static func restingOffset(_ props: ScrollViewProps, layout: ScrollSize, content: ScrollSize) -> Point? {
        let offset = props.contentOffset ?? Point()
        let horizontal = content.width > layout.width
        let along = horizontal ? offset.x : offset.y
        let viewLength = horizontal ? layout.width : layout.height
        let maximum = max((horizontal ? content.width : content.height) - viewLength, 0)
        let target: Double
        if props.passThrough["pagingEnabled"] == .bool(true) {
            target = viewLength > 0 ? (along / viewLength).rounded() * viewLength : along
        } else if case .array(let values)? = props.passThrough["snapToOffsets"], !values.isEmpty {
            let offsets = values.compactMap(Double.init(propValue:))
            guard let first = offsets.first, let last = offsets.last else { return nil }
            // Free before the first offset, or after the last, where snapping to the start or the end is off.
            if props.passThrough["snapToEnd"] == .bool(false) && along >= last { return nil }
            if props.passThrough["snapToStart"] == .bool(false) && along <= first { return nil }
            // The offsets on either side (the start and the end when none is), the nearer one; a tie goes forward.
            var smaller = 0.0
            var larger = maximum
            for offset in offsets {
                if offset <= along && along - offset < along - smaller { smaller = offset }
                if offset >= along && offset - along < larger - along { larger = offset }
            }
            target = along - smaller < larger - along ? smaller : larger
        } else if case .double(let interval)? = props.passThrough["snapToInterval"], interval > 0 {
            // RCTScrollView's alignment offsets, as it computes them.
            let alignment: Double =
                switch props.passThrough["snapToAlignment"] {
                case .string("center")?: viewLength / 2 + interval / 2
                case .string("end")?: viewLength
                default: 0
                }
            target = ((along + alignment) / interval).rounded() * interval - alignment
        } else {
            return nil
        }
        let clamped = min(max(target, 0), maximum)
        return horizontal ? Point(x: clamped, y: offset.y) : Point(x: offset.x, y: clamped)
    }

    /// Moves the offset and emits `scroll`, when it moves.
    private static func move(to offset: Point, _ ctx: CommandContext<ScrollViewProps>) {
        guard offset != (ctx.props.contentOffset ?? Point()) else { return }
        ctx.set(\.contentOffset, offset)
        ctx.emit("scroll", payload(ctx.props))
    }

    private static func payload(_ props: ScrollViewProps) -> EventPayload {
        func size(_ size: ScrollSize?) -> PropValue {
            .object([PropMember("width", .double(size?.width ?? 0)), PropMember("height", .double(size?.height ?? 0))])
        }
        return [
            "contentOffset": .point(props.contentOffset ?? Point()),
            "contentSize": size(props.contentSize),
            "layoutMeasurement": size(props.layoutMeasurement),
            "contentInset": .edgeInsets(props.contentInset ?? EdgeInsets()),
            "zoomScale": .double(props.zoomScale ?? 1),
        ]
    }

    /// `ScrollView offset=(0,120)`.
    public static func render(_ props: ScrollViewProps) -> String {
        let offset = props.contentOffset ?? Point()
        return "ScrollView offset=(\(ReactNativeNumber.text(offset.x)),\(ReactNativeNumber.text(offset.y)))"
    }
}

/// Props of a component with no props of its own (its View's are inherited).
@Observable
public final class NoOwnProps: PassThroughProps {
    public var passThrough: [String: PropValue] = [:]
    public init() {}
}

/// `RCTScrollContentView`: the view that holds a `ScrollView`'s children (`ScrollContentViewNativeComponent.js`:
/// no props of its own).
public enum ReactNativeScrollContentView: Component {
    public static let name = "RCTScrollContentView"
    public static let props: [Prop<NoOwnProps>] = []
    public static func render(_ props: NoOwnProps) -> String { "ScrollContentView" }
}

/// Numbers as a render shows them: `120`, not `120.0`.
enum ReactNativeNumber {
    static func text(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
