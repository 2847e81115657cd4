/// React Native's touch events, as iOS's `RCTTouchHandler` sends them: bubbling, from whichever view was touched.
///
/// React Native lists them among the `bubblingEventTypes` of every view (`BaseViewConfig.ios.js`: `topTouchStart`,
/// `topTouchMove`, `topTouchCancel`, `topTouchEnd`), and the touch handler sits on the root view, not on a
/// component. So no component declares them here and every registry has them from its start
/// (``ComponentRegistry/init()``): any view may subscribe to them, and the `touch` op emits them from any view.
/// Their payload, `{touches, changedIndices}`, is written by the op and not declared.
public enum TouchEvents {
    /// `touchStart`, `touchMove`, `touchEnd`, `touchCancel`: the `touch` op's phases `start` … `cancel`.
    public static let all: [EventSpec] = ["touchStart", "touchMove", "touchEnd", "touchCancel"].map {
        .bubbling($0)
    }
}
